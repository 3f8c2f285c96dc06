/**
 * Replays Strapi 4.26's i18n samples (shared/reference/strapi4-samples-plugins
 * 100–110) in their order against a fresh app with the same localized `page`
 * type and locales, and compares status and body exactly; timestamps, which
 * no two runs share, are compared as "a timestamp in the same place".
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase, SHARED_REFERENCE, type TestApp } from '@tessera/testing';
import { startI18nApp } from './fixture';

interface Sample {
  method: string;
  path: string;
  authorized: boolean;
  body: unknown;
  status: number;
  response: string;
}

const SAMPLES = path.join(SHARED_REFERENCE, 'strapi4-samples-plugins');

function readSample(prefix: string): Sample {
  const file = fs.readdirSync(SAMPLES).find((name) => name.startsWith(`${prefix}-`));
  if (!file) throw new Error(`no sample ${prefix}`);
  const [request, response] = fs.readFileSync(path.join(SAMPLES, file), 'utf8').split('### RESPONSE');
  const requestLines = request.replace('### REQUEST', '').trim().split('\n');
  const [method, requestPath] = requestLines[0].split(' ');
  const blank = requestLines.indexOf('');
  const body = blank >= 0 ? JSON.parse(requestLines.slice(blank + 1).join('\n')) : undefined;
  return {
    method,
    path: requestPath,
    authorized: requestLines.some((line) => line.startsWith('Authorization:')),
    body,
    status: Number(/HTTP\/1\.1 (\d{3})/.exec(response)![1]),
    response: response.trim().split('\n').pop()!,
  };
}

const TIMESTAMP = /"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g;
const withoutTimestamps = (text: string) => text.replace(TIMESTAMP, '"<timestamp>"');

eachDatabase('i18n reference samples 100-110', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    ({ app, token } = await startI18nApp(dialect));
  });
  after(() => app?.stop());

  const replay = (sample: Sample, pathAndQuery = sample.path) =>
    app.request(sample.method, pathAndQuery, { body: sample.body, token: sample.authorized ? token : undefined });

  for (const prefix of ['100', '101', '102', '103', '104', '105', '106', '107']) {
    it(`sample ${prefix}: same status and body`, async () => {
      const sample = readSample(prefix);
      const response = await replay(sample);
      expect(response.status).to.equal(sample.status);
      expect(withoutTimestamps(response.text)).to.equal(withoutTimestamps(sample.response));
    });
  }

  // The fr entry is a draft: under `live` (the default) populated localizations leave drafts out, as every
  // populated relation does in Tessera (Strapi v4 leaks them); with `preview` the answer is Strapi's.
  const hideDraftLocalization = (text: string) => text.replace(/"localizations":\{"data":\[.*\]\}\}\},"meta"/, '"localizations":{"data":[]}}},"meta"');

  it('sample 108 (deliberate): the draft localization is left out under live; preview answers as Strapi', async () => {
    const sample = readSample('108');
    const live = await replay(sample);
    expect(live.status).to.equal(200);
    expect(withoutTimestamps(live.text)).to.equal(withoutTimestamps(hideDraftLocalization(sample.response)));
    const preview = await replay(sample, `${sample.path}&publicationState=preview`);
    expect(withoutTimestamps(preview.text)).to.equal(withoutTimestamps(sample.response));
  });

  it('sample 109 (deliberate): under preview the same answer as Strapi (localizations read before the shared field spreads)', async () => {
    const sample = readSample('109');
    const response = await replay(sample, `${sample.path}&publicationState=preview`);
    expect(response.status).to.equal(200);
    expect(withoutTimestamps(response.text)).to.equal(withoutTimestamps(sample.response));
  });

  it('sample 110: same status and body', async () => {
    const sample = readSample('110');
    const response = await replay(sample);
    expect(response.status).to.equal(sample.status);
    expect(response.text).to.equal(sample.response);
  });

  it('sample 109 wrote the shared field on the other localization too (the answer was read before)', async () => {
    const french = await app.get('/api/pages/2?publicationState=preview&fields[0]=order', { token });
    expect(french.body.data.attributes.order).to.equal(7);
  });
});

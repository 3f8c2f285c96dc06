/**
 * Replays Strapi v4's populate and relation-filter samples (06, 07, 08, 11,
 * 13, 14, 16) against the example app serving a copy of the database Strapi
 * filled, comparing bodies byte for byte; then the create/update samples with
 * relations and a component (31, 32) on a fresh copy, timestamps aside.
 * SQLite only: the reference database is a SQLite file. (The example app's
 * extra content types add their own tables to the copy; nothing else moves.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, SHARED_REFERENCE, requireReference, startApp, type TestApp } from '@tessera/testing';

const SAMPLES = path.join(SHARED_REFERENCE, 'strapi4-samples');
const DATABASE = path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite');

interface Sample {
  method: string;
  path: string;
  requestBody: string | undefined;
  status: number;
  body: string;
}

function readSample(prefix: string): Sample {
  const file = fs.readdirSync(SAMPLES).find((name) => name.startsWith(`${prefix}-`));
  if (!file) throw new Error(`no sample ${prefix}`);
  const [request, response] = fs.readFileSync(path.join(SAMPLES, file), 'utf8').split('### RESPONSE');
  const requestLines = request.replace('### REQUEST', '').trim().split('\n');
  const [method, requestPath] = requestLines[0].split(' ');
  const lastRequestLine = requestLines[requestLines.length - 1];
  const requestBody = lastRequestLine.startsWith('{') ? lastRequestLine : undefined;
  const status = Number(/HTTP\/1\.1 (\d{3})/.exec(response)![1]);
  return { method, path: requestPath, requestBody, status, body: response.trim().split('\n').pop()! };
}

const TIMESTAMP = /"(createdAt|updatedAt|publishedAt)":"[^"]+"/g;
const withoutTimestamps = (text: string) => text.replace(TIMESTAMP, '"$1":"<time>"');

describe('relations on the reference database: populate and relation-filter samples [sqlite]', () => {
  let app: TestApp;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite', 'strapi4-samples');
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: DATABASE });
  });
  after(() => app?.stop());

  for (const prefix of ['06', '07', '08', '11', '13', '14', '16']) {
    it(`sample ${prefix}: same status and body`, async () => {
      const sample = readSample(prefix);
      const response = await app.request(sample.method, sample.path);
      expect(response.status).to.equal(sample.status);
      expect(response.text).to.equal(sample.body);
    });
  }
});

describe('relations on the reference database: create and update samples [sqlite]', () => {
  let app: TestApp;
  let token: string;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite', 'strapi4-samples');
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: DATABASE });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it('sample 31 then 32: create with relations and a component, update with populate=*', async () => {
    for (const prefix of ['31', '32']) {
      const sample = readSample(prefix);
      const response = await app.request(sample.method, sample.path, { rawBody: sample.requestBody, token });
      expect(response.status, response.text).to.equal(sample.status);
      expect(withoutTimestamps(response.text)).to.equal(withoutTimestamps(sample.body));
    }
    // Both sides agree with what Strapi stored for the same writes.
    const category = await app.get('/api/categories/1?populate[articles][fields][0]=id&populate[articles][sort][0]=id:desc&populate[articles][filters][id][$eq]=2001');
    expect(category.body.data.attributes.articles.data).to.deep.equal([{ id: 2001, attributes: {} }]);
    const tag = await app.get('/api/tags/1?populate[articles][filters][id][$eq]=2001');
    expect(tag.body.data.attributes.articles.data).to.deep.equal([]);
  });
});

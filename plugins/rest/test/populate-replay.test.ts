/**
 * Populate as real frontends write it (issue 22, items 1–3), held to Strapi
 * 4.26.2's recorded answers on the same schemas and seed
 * (replays/populate-forms.json): dotted paths sharing a head merge, bracket
 * and plain forms in one query merge (Strapi 4.26 answers 500 there; the
 * expected answer is what it gives for the same meaning written one way), a
 * string value populates (`populate[category]=name`) unless it reads as false,
 * and keys that are not attributes are ignored. Strict mode still refuses them.
 */
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { expectedAnswer, readReplay, seedReplay, withoutTimestamps } from './replay';

const replay = readReplay(path.join(__dirname, 'replays/populate-forms.json'));

eachDatabase(`populate forms, replayed from Strapi ${replay.strapi}`, (dialect) => {
  let app: TestApp;
  let strict: TestApp;

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    await seedReplay(app, replay, await app.fullAccessToken());
  });
  after(() => app.stop());

  for (const request of replay.requests) {
    const expected = expectedAnswer(request);
    it(`${request.note ?? ''} ${request.path} → ${expected.status}`, async () => {
      const response = await app.get(request.path);
      expect(response.status, response.text).to.equal(expected.status);
      if (expected.body !== undefined) expect(withoutTimestamps(response.body)).to.deep.equal(withoutTimestamps(expected.body));
      else expect(response.body.error.name).to.equal('ValidationError');
    });
  }

  describe('strict mode', () => {
    before(async () => {
      strict = await startApp({ dialect, from: EXAMPLE_APP, config: { api: { rest: { strictParams: true } } } });
    });
    after(() => strict.stop());

    it('still refuses keys that are not attributes and strings that mean nothing, and merges like the default mode', async () => {
      for (const [query, message] of [
        ['populate[fields][0]=title', 'Invalid parameter fields'],
        ['populate[foo]=bar', 'Invalid parameter foo'],
        ['populate[category]=name', 'Invalid parameter populate: bad value for category: use true, false, * or an object'],
      ]) {
        const response = await strict.get(`/api/articles?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.message, query).to.equal(message);
      }
      for (const query of ['populate=category.articles.tags,category.articles.author', 'populate[tags][fields][0]=name&populate=category', 'populate[category]=false']) {
        expect((await strict.get(`/api/articles?${query}`)).status, query).to.equal(200);
      }
    });
  });
});

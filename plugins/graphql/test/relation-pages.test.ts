/**
 * The page of a to-many relation over GraphQL (issue 22, item 7): without a
 * `pagination` argument Strapi v4.26 answers the first 10 linked entries,
 * and its page rules (link-page.ts) are recorded from a real Strapi 4.26.2
 * in data/strapi-4.26.2-relation-pages.json. Replayed on a copy of the
 * database Strapi filled (SQLite: the reference is a SQLite file), then the
 * same rules on both databases with entries written here, where the page is
 * cut per parent in the one query that loads the relation for all parents.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, SHARED_REFERENCE, eachDatabase, requireReference, startApp, type TestApp } from '@tessera/testing';
import { create, gqlData } from './helpers';

interface Recorded {
  query: string;
  status: number;
  body: string;
}

const RECORDED: { strapi: string; requests: Recorded[] } = JSON.parse(fs.readFileSync(path.join(__dirname, 'data', 'strapi-4.26.2-relation-pages.json'), 'utf8'));

describe('GraphQL relation pages: Strapi 4.26.2 recorded on its own database [sqlite]', () => {
  let app: TestApp;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite') });
  });
  after(() => app?.stop());

  it(`was recorded from Strapi ${RECORDED.strapi}`, () => {
    expect(RECORDED.strapi).to.equal('4.26.2');
    expect(RECORDED.requests.length).to.be.greaterThan(12);
  });

  for (const recorded of RECORDED.requests) {
    it(`same answer: ${recorded.query.slice(0, 110)}`, async () => {
      const response = await app.post('/graphql', { query: recorded.query });
      expect(response.status).to.equal(recorded.status);
      expect(response.body).to.deep.equal(JSON.parse(recorded.body));
    });
  }
});

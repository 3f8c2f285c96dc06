import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { bootFolder, grantPublicReads, installedAppFolder, stopFolderApp } from './app-folder';
import { ask, fill, seed, type Answer } from './content-client';
import { CLIENT_REQUESTS, PUBLIC_TYPES, SEED } from './foodadvisor-content';

/**
 * FoodAdvisor (strapi/foodadvisor), the official Strapi v4 demo: its `api/` folder booted on Tessera unchanged,
 * with the app's third-party dependencies installed from npm as `npm install` would (`@strapi/*` excluded: Tessera
 * provides them), then the requests its `client/` sends, compared with what Strapi 4.26.2 answered for the same
 * content (recorded in foodadvisor-strapi-4.26.2.json).
 *
 * The app is the vendored snapshot in fixtures/foodadvisor (its README names the commit); FOODADVISOR_MIRROR, a bare
 * clone of strapi/foodadvisor, takes `api/` from there instead (at FOODADVISOR_REV, by default the same commit).
 */
const FIXTURE = path.join(__dirname, 'fixtures', 'foodadvisor', 'api');
const COMMIT = 'ba9fdaea886b1183fae8e43e0edce0ded963779c';
const RECORDED = path.join(__dirname, 'foodadvisor-strapi-4.26.2.json');
/** The app's dependencies Tessera stands in for, and a native module it does not use. */
const PROVIDED = (name: string) => name.startsWith('@strapi/') || name === 'better-sqlite3';

describe('Strapi ecosystem: FoodAdvisor api/ on Tessera, unchanged', function () {
  this.timeout(600_000);
  let dir: string;

  before(function () {
    dir = installedAppFolder(this, FIXTURE, { variable: 'FOODADVISOR_MIRROR', folder: 'api', rev: process.env.FOODADVISOR_REV ?? COMMIT }, PROVIDED);
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  /** FoodAdvisor's `getData` requests, which mix the populate forms. */
  const MIXED_POPULATE = /populate\[blocks\]\[populate\]=.*&populate=localizations/;

  for (const dialect of DIALECTS) {
    describe(`[${dialect}]`, () => {
      let app: TestApp;
      let answers: Answer[];
      const recorded = () => JSON.parse(fs.readFileSync(RECORDED, 'utf8')) as { answers: Answer[] };

      before(async () => {
        app = await bootFolder(dir, dialect);
        await grantPublicReads(app.app, PUBLIC_TYPES);
        const token = await app.fullAccessToken();
        const ids = await seed(app.url, token, SEED);
        answers = await ask(app.url, CLIENT_REQUESTS, ids);
        // The recorded paths hold `$name` placeholders; the ids are the same on a fresh database.
        for (const answer of answers) answer.path = answer.path.replace(/\$[A-Za-z0-9]+/g, (match) => fill(match, ids));
      });
      after(() => stopFolderApp(app));

      it(`asks at least 15 of client/'s requests (${CLIENT_REQUESTS.length})`, () => {
        expect(CLIENT_REQUESTS.length).to.be.at.least(15);
      });

      CLIENT_REQUESTS.forEach((request, index) => {
        it(`${request.from}: GET ${request.path.slice(0, 120)}`, () => {
          const expected = recorded().answers[index];
          type Entry = { attributes?: Record<string, unknown> };
          const data = (answers[index].body as { data?: Entry | Entry[] } | undefined)?.data;
          // Bracket and plain populate mixed (`populate[blocks][populate]=…&populate=localizations`): Strapi 4.26.2's
          // qs turns them into keys it ignores and answers 200 without them; Tessera answers Strapi 4.13's meaning, the
          // one the client was written for (README, "Compatibility with Strapi v4"). The rest must be Strapi's.
          for (const entry of MIXED_POPULATE.test(request.path) ? [data ?? []].flat() : []) {
            const attributes = { ...entry.attributes };
            for (const name of ['blocks', 'localizations']) {
              expect(attributes, `${name}: populated as Strapi 4.13 did`).to.have.property(name);
              delete attributes[name];
            }
            entry.attributes = attributes;
          }
          expect({ status: answers[index].status, body: answers[index].body }).to.deep.equal({ status: expected.status, body: expected.body });
        });
      });
    });
  }
});

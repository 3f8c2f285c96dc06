import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { bootFolder, grantPublicReads, installedAppFolder, stopFolderApp } from './app-folder';
import { ask, fill, seed, type Answer } from './content-client';
import { CLIENT_REQUESTS, PUBLIC_TYPES, SEED, TOKENS } from './corporate-content';

/**
 * The official Next.js corporate starter (strapi/nextjs-corporate-starter): its `backend/` booted on Tessera unchanged
 * — its code (the page route's populate middleware), its config (`seo` enabled in config/plugins.js) and its `.env`
 * made from `.env.example` as its README says — with its third-party dependencies installed from npm
 * (`@strapi/plugin-seo`, `@strapi/plugin-cloud`, the admin panel's React), then the requests its `frontend/` sends
 * with the custom tokens its README has you create, compared with what Strapi 4.26.2 answered for the same backend
 * and content (recorded in corporate-starter-strapi-4.26.2.json by record-strapi.js).
 *
 * The backend is the vendored snapshot in fixtures/nextjs-corporate-starter (its README names the commit);
 * CORPORATE_STARTER_MIRROR, a bare clone of the repository, takes `backend/` from there instead.
 */
const FIXTURE = path.join(__dirname, 'fixtures', 'nextjs-corporate-starter', 'backend');
const COMMIT = '364472521efe2663a0fd923415aefa99c6d3d740';
const RECORDED = path.join(__dirname, 'corporate-starter-strapi-4.26.2.json');

describe('Strapi ecosystem: the Next.js corporate starter backend/ on Tessera, unchanged', function () {
  this.timeout(600_000);
  let dir: string;

  before(function () {
    dir = installedAppFolder(this, FIXTURE, { variable: 'CORPORATE_STARTER_MIRROR', folder: 'backend', rev: process.env.CORPORATE_STARTER_REV ?? COMMIT });
    fs.copyFileSync(path.join(dir, '.env.example'), path.join(dir, '.env'));
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  for (const dialect of DIALECTS) {
    describe(`[${dialect}]`, () => {
      let app: TestApp;
      let answers: Answer[];
      const recorded = () => JSON.parse(fs.readFileSync(RECORDED, 'utf8')) as { answers: Answer[] };

      before(async () => {
        app = await bootFolder(dir, dialect);
        await grantPublicReads(app.app, PUBLIC_TYPES);
        const accessKeys: Record<string, string> = {};
        for (const [name, permissions] of Object.entries(TOKENS)) {
          accessKeys[name] = (await app.app.apiTokens.create({ name, type: 'custom', permissions })).accessKey;
        }
        const ids = await seed(app.url, await app.fullAccessToken(), SEED);
        answers = await ask(app.url, CLIENT_REQUESTS, ids, accessKeys);
        for (const answer of answers) answer.path = answer.path.replace(/\$[A-Za-z0-9]+/g, (match) => fill(match, ids));
      });
      after(() => stopFolderApp(app));

      it('boots the seo plugin its config enables, from npm', () => {
        expect(app.app.plugin('seo')).to.not.equal(undefined);
      });

      CLIENT_REQUESTS.forEach((request, index) => {
        it(`${request.from}: ${request.method ?? 'GET'} ${request.path.slice(0, 110)}`, () => {
          const expected = recorded().answers[index];
          expect({ status: answers[index].status, body: answers[index].body }).to.deep.equal({ status: expected.status, body: expected.body });
        });
      });
    });
  }
});

import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { adminWrite, bootFolder, grantPublicReads, grantRoleActions, mirroredAppFolder, stopFolderApp } from './app-folder';
import { ask, fill, seed, type Answer } from './content-client';
import { CLIENT_REQUESTS, PUBLIC_TYPES, ROLE_ACTIONS, SEED } from './epic-next-content';

/**
 * Strapi's "Epic Next.js 14 tutorial" app (PaulBratslavsky/epic-next-course): its `backend/` booted on Tessera
 * unchanged — `src/index.js` reaching users-permissions' routes through the global `strapi` in `register`, global and
 * API middlewares on routes, the extended user schema, its `.env` made from `.env.example` — then its `frontend/`'s
 * requests, a signed-in user's among them, compared with what Strapi 4.26.2 answered for the same backend, content
 * and requests (recorded in epic-next-strapi-4.26.2.json by record-strapi.js with epic-next-content.ts).
 *
 * The repository is not vendored (it has no license file to keep beside a copy): the backend comes from a bare
 * clone, EPIC_NEXT_MIRROR or the fetched snapshot (app-folder.ts, mirroredAppFolder), and the suite says so and
 * skips without one.
 */
const COMMIT = 'be2b8325cec63592287633d932f3830d35261b52';
const RECORDED = path.join(__dirname, 'epic-next-strapi-4.26.2.json');

describe('Strapi ecosystem: the Epic Next.js tutorial backend/ on Tessera, unchanged', function () {
  this.timeout(600_000);
  let dir: string;

  before(function () {
    dir = mirroredAppFolder(this, { variable: 'EPIC_NEXT_MIRROR', repository: 'PaulBratslavsky/epic-next-course', folder: 'backend', rev: process.env.EPIC_NEXT_REV ?? COMMIT });
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
        await grantRoleActions(app.app, ROLE_ACTIONS);
        const ids = await seed(app.url, await app.fullAccessToken(), SEED, adminWrite(app.app));
        answers = await ask(app.url, CLIENT_REQUESTS, ids, {}, adminWrite(app.app));
        for (const answer of answers) answer.path = answer.path.replace(/\$[A-Za-z0-9]+/g, (match) => fill(match, ids));
      });
      after(() => stopFolderApp(app));

      CLIENT_REQUESTS.forEach((request, index) => {
        const title = 'admin' in request ? request.from : `${request.from}: ${request.method ?? (request.upload ? 'POST' : 'GET')} ${request.path.slice(0, 100)}`;
        it(title, () => {
          const expected = recorded().answers[index];
          expect({ status: answers[index].status, body: answers[index].body }).to.deep.equal({ status: expected.status, body: expected.body });
        });
      });
    });
  }
});

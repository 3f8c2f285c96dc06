import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { adminWrite, bootFolder, grantPublicReads, grantRoleActions, mirroredAppFolder, stopFolderApp } from './app-folder';
import { ask, fill, seed, type Answer } from './content-client';
import { CLIENT_REQUESTS, PUBLIC_TYPES, ROLE_ACTIONS, SEED, TOKENS } from './notum-content';

/**
 * notum-cz's Strapi + Next.js monorepo starter at its last Strapi v4 commit: `apps/strapi` (TypeScript config and
 * code, lifecycles, i18n, plugins from npm: populate-deep, seo, config-sync, color-picker, sentry) booted on Tessera
 * unchanged, then `apps/ui`'s requests compared with what Strapi 4.26.2 answered for the same backend, content and
 * requests (notum-strapi-4.26.2.json, recorded by record-strapi.js with notum-content.ts).
 *
 * Not vendored (the repository has no license file): the app comes from a bare clone, NOTUM_STARTER_MIRROR or the
 * fetched snapshot, and the suite skips saying why without one. `@strapi/plugin-sentry@4.24.5`, which the app names,
 * is not on the npm registry any more: 4.24.3 is installed (with no DSN it stays off either way).
 */
const COMMIT = 'ceebf975bc9b97467ba11f90388b9995a45d1a5d';
const RECORDED = path.join(__dirname, 'notum-strapi-4.26.2.json');

/**
 * The ids of the component rows a page's dynamic zone holds, masked. Strapi 4.26 creates the components of one
 * write concurrently, children before parents, so their ids follow its promise scheduling (a sibling without nested
 * components gets its id first); Tessera numbers them parents first, in the order sent. Everything else — the rows,
 * their order, values and media (whose `data.id` is kept) — must be Strapi's (README, "Compatibility with Strapi v4").
 */
function maskComponentIds(value: unknown, inZone = false): unknown {
  if (Array.isArray(value)) return value.map((item) => maskComponentIds(item, inZone));
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const isComponent = inZone && !('attributes' in record);
  return Object.fromEntries(
    Object.entries(record).map(([key, item]) => {
      if (key === 'id' && isComponent) return [key, '<component id>'];
      return [key, maskComponentIds(item, inZone || key === 'content')];
    }),
  );
}
const DEEP_PAGES = /^\/api\/pages\?populate=deep/;

describe("Strapi ecosystem: notum-cz's Strapi 4 monorepo starter (apps/strapi, TypeScript) on Tessera, unchanged", function () {
  this.timeout(900_000);
  let dir: string;

  before(function () {
    const mirror = { variable: 'NOTUM_STARTER_MIRROR', repository: 'notum-cz/strapi-next-monorepo-starter', folder: 'apps/strapi', rev: process.env.NOTUM_STARTER_REV ?? COMMIT };
    dir = mirroredAppFolder(this, mirror, { versions: { '@strapi/plugin-sentry': '4.24.3' } });
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
        const accessKeys: Record<string, string> = {};
        for (const [name, permissions] of Object.entries(TOKENS)) accessKeys[name] = (await app.app.apiTokens.create({ name, type: 'custom', permissions })).accessKey;
        const ids = await seed(app.url, await app.fullAccessToken(), SEED, adminWrite(app.app));
        answers = await ask(app.url, CLIENT_REQUESTS, ids, accessKeys, adminWrite(app.app));
        for (const answer of answers) answer.path = answer.path.replace(/\$[A-Za-z0-9]+/g, (match) => fill(match, ids));
      });
      after(() => stopFolderApp(app));

      it('runs the plugins the app installs and enables: populate-deep, seo, config-sync, color-picker', () => {
        expect(['strapi-plugin-populate-deep', 'seo', 'config-sync', 'color-picker'].map((name) => app.app.plugin(name) !== undefined)).to.deep.equal([true, true, true, true]);
      });

      CLIENT_REQUESTS.forEach((request, index) => {
        it(`${request.from}: ${request.method ?? 'GET'} ${request.path.slice(0, 100)}`, () => {
          const expected = recorded().answers[index];
          const mask = DEEP_PAGES.test(request.path) ? maskComponentIds : (body: unknown) => body;
          expect({ status: answers[index].status, body: mask(answers[index].body) }).to.deep.equal({ status: expected.status, body: mask(expected.body) });
        });
      });
    });
  }
});

#!/usr/bin/env node
/**
 * Records a real Strapi v4's answers to a real app's frontend requests, for the app tests to compare with.
 *
 *   node scripts/ecosystem/test/apps/record-strapi.js <app folder> <content module> <output.json>
 *   e.g. <api/ of FoodAdvisor> foodadvisor-content.ts foodadvisor-strapi-4.26.2.json
 *        <backend/ of the corporate starter> corporate-content.ts corporate-starter-strapi-4.26.2.json
 *
 * <app folder>: the app's folder (the test's fixture) with Strapi 4.26.2 resolvable from it (the
 * `../shared/strapi4-peer` install's packages) and the same third-party packages the test installs. <content module>:
 * a module beside this script exporting SEED, CLIENT_REQUESTS, PUBLIC_TYPES and, optionally, TOKENS and
 * ROLE_ACTIONS. On a fresh database it grants the public reads and the roles' actions, creates the custom tokens and
 * a full-access one, writes the seed through the content API and asks the requests (an admin step through
 * `strapi.query(uid)`) — the same steps the tests take on Tessera (content-client.ts). A TypeScript app is compiled
 * first and run from its outDir, as `strapi build` and `strapi start` run it.
 * PORT (default 1347) is where it listens.
 *
 * How the corporate starter's recording was made: the fixture's `backend/` copied to a scratch folder, `.env.example`
 * copied to `.env`, `@strapi/plugin-seo` and `@strapi/plugin-cloud` installed there, every other package of the peer's
 * node_modules symlinked beside them, and this script run with `node --preserve-symlinks` (Strapi finds an app's
 * plugins with a bare `require` from its own files, which must then resolve through the app's node_modules).
 *
 * The Epic Next.js tutorial's (epic-next-content.ts) and notum-cz's starter's (notum-content.ts) were made the same
 * way: the app folder at the test's commit, every package of the peer's node_modules symlinked into it, then the
 * app's own third-party packages (npm-installed in a folder beside it) symlinked where the peer has none, the app's
 * named dependencies winning (`@strapi/plugin-cloud@4.20.3`; the starter's plugins and `@strapi/plugin-sentry@4.24.3`,
 * as its test installs them), `.env` from `.env.example`, and, for the starter, DATABASE_CLIENT=sqlite.
 */
require('sucrase/register/ts');
const fs = require('node:fs');
const path = require('node:path');
const { seed, ask } = require('./content-client.ts');

async function main() {
  const [appDir, moduleName, output] = process.argv.slice(2);
  const { SEED, CLIENT_REQUESTS, PUBLIC_TYPES, TOKENS = {}, ROLE_ACTIONS = {} } = require(path.join(__dirname, moduleName));
  const root = path.resolve(appDir);
  const target = path.resolve(output);
  process.env.PORT = process.env.PORT ?? '1347';
  process.chdir(root);
  // Strapi's local upload provider needs the folder, which checkouts have (`public/uploads/.gitkeep`) and the fixtures cannot.
  fs.mkdirSync(path.join(root, 'public', 'uploads'), { recursive: true });
  const createStrapi = require(require.resolve('@strapi/strapi', { paths: [root] }));
  // A TypeScript app runs from what tsc emits, as `strapi build` then `strapi start` run it.
  const tsUtils = require(require.resolve('@strapi/typescript-utils', { paths: [root] }));
  let distDir = root;
  if (await tsUtils.isUsingTypeScript(root)) {
    await tsUtils.compile(root, { watch: false, configOptions: { options: { incremental: true } } });
    distDir = await tsUtils.resolveOutDir(root);
  }
  const strapi = await createStrapi({ appDir: root, distDir }).load();
  const role = await strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  for (const name of PUBLIC_TYPES) {
    for (const action of ['find', 'findOne']) {
      await strapi.query('plugin::users-permissions.permission').create({ data: { action: `api::${name}.${name}.${action}`, role: role.id } });
    }
  }
  for (const [type, actions] of Object.entries(ROLE_ACTIONS)) {
    const granted = await strapi.query('plugin::users-permissions.role').findOne({ where: { type } });
    for (const action of actions) await strapi.query('plugin::users-permissions.permission').create({ data: { action, role: granted.id } });
  }
  const tokens = strapi.service('admin::api-token');
  const accessKeys = {};
  for (const [name, permissions] of Object.entries(TOKENS)) {
    accessKeys[name] = (await tokens.create({ name, type: 'custom', lifespan: null, permissions })).accessKey;
  }
  const { accessKey } = await tokens.create({ name: 'recorder', type: 'full-access', lifespan: null });
  await strapi.listen();
  const base = `http://127.0.0.1:${strapi.config.get('server.port')}`;
  const admin = async (uid, data, where) => {
    if (where) await strapi.query(uid).updateMany({ where, data });
    else await strapi.query(uid).create({ data });
  };
  const ids = await seed(base, accessKey, SEED, admin);
  const answers = await ask(base, CLIENT_REQUESTS, ids, accessKeys, admin);
  const strapiVersion = require(require.resolve('@strapi/strapi/package.json', { paths: [root] })).version;
  fs.writeFileSync(target, `${JSON.stringify({ recordedWith: `@strapi/strapi ${strapiVersion}, SQLite`, ids, answers }, null, 1)}\n`);
  await strapi.destroy();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

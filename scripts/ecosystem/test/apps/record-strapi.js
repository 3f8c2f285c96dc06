#!/usr/bin/env node
/**
 * Records a real Strapi v4's answers to FoodAdvisor's client requests, for foodadvisor.test.ts to compare with.
 *
 *   node scripts/ecosystem/test/apps/record-strapi.js <app folder> <output.json>
 *
 * <app folder>: FoodAdvisor's `api/` with Strapi 4.26.2 installed beside it (the `../shared/strapi4-peer` install's
 * node_modules) and the same third-party packages the test installs. On a fresh database it grants the public reads
 * FoodAdvisor's database grants, creates a full-access token, writes the seed through the content API and asks
 * the requests — the same steps the test takes on Tessera (content-client.ts, foodadvisor-content.ts).
 */
require('sucrase/register/ts');
const fs = require('node:fs');
const path = require('node:path');
const { seed, ask } = require('./content-client.ts');
const { SEED, CLIENT_REQUESTS, PUBLIC_TYPES } = require('./foodadvisor-content.ts');

async function main() {
  const [appDir, output] = process.argv.slice(2).map((value) => path.resolve(value));
  process.chdir(appDir);
  const createStrapi = require(require.resolve('@strapi/strapi', { paths: [appDir] }));
  const strapi = await createStrapi({ appDir, distDir: appDir }).load();
  const role = await strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  for (const name of PUBLIC_TYPES) {
    for (const action of ['find', 'findOne']) {
      await strapi.query('plugin::users-permissions.permission').create({ data: { action: `api::${name}.${name}.${action}`, role: role.id } });
    }
  }
  const { accessKey } = await strapi.service('admin::api-token').create({ name: 'recorder', type: 'full-access', lifespan: null });
  await strapi.listen();
  const base = `http://127.0.0.1:${strapi.config.get('server.port')}`;
  const ids = await seed(base, accessKey, SEED);
  const answers = await ask(base, CLIENT_REQUESTS.map((request) => request.path), ids);
  const strapiVersion = require(require.resolve('@strapi/strapi/package.json', { paths: [appDir] })).version;
  fs.writeFileSync(output, `${JSON.stringify({ recordedWith: `@strapi/strapi ${strapiVersion}, SQLite`, ids, answers }, null, 1)}\n`);
  await strapi.destroy();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

#!/usr/bin/env node
/**
 * Makes a Strapi 4.26.2 app that serves one frontend corpus's schemas
 * (apps/example/test/frontend-corpus/<name>.json), beside the reference peer
 * installed by ../shared/strapi4-peer/setup.sh: its node_modules, package.json
 * and config, the corpus's schema files, core routers/controllers/services for
 * each API, and a bootstrap that creates the corpus's locales (the same code
 * Tessera's test runs), grants the public role find/findOne on the corpus's
 * public types, and writes a full-access API token to <app>/token.txt.
 *
 *   PEER_ROOT=/tmp/peer node scripts/strapi-peer/corpus-app.js foodadvisor.json   # prints the app folder
 *   PEER_ROOT=/tmp/peer APP_DIR=<that> RESET_DB=1 PORT=1392 ../shared/strapi4-peer/start.sh
 *   node -r sucrase/register/ts scripts/strapi-peer/record-corpus.js foodadvisor.json http://127.0.0.1:1392 <app>/token.txt
 */
require('sucrase/register/ts');
const fs = require('node:fs');
const path = require('node:path');
const { readCorpus, schemaFiles, contentTypeKinds, localesBootstrap } = require('../../apps/example/test/frontend-corpus/corpus.ts');

const name = process.argv[2];
if (!name) throw new Error('usage: corpus-app.js <corpus file name>');
const peerRoot = process.env.PEER_ROOT || '/tmp/strapi4-peer';
const peerApp = path.join(peerRoot, 'strapi4-app');
const dir = path.join(peerRoot, `corpus-${path.basename(name, '.json')}`);
const corpus = readCorpus(name);

fs.rmSync(path.join(dir, 'src'), { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
for (const part of ['config', 'public', 'database']) fs.cpSync(path.join(peerApp, part), path.join(dir, part), { recursive: true });
fs.copyFileSync(path.join(peerApp, 'package.json'), path.join(dir, 'package.json'));
if (!fs.existsSync(path.join(dir, 'node_modules'))) fs.symlinkSync(path.join(peerApp, 'node_modules'), path.join(dir, 'node_modules'));

for (const [file, text] of Object.entries(schemaFiles(corpus))) {
  fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}
const kinds = contentTypeKinds(corpus);
for (const api of kinds.keys()) {
  const uid = `api::${api}.${api}`;
  for (const [part, factory] of [['routes', 'createCoreRouter'], ['controllers', 'createCoreController'], ['services', 'createCoreService']]) {
    fs.mkdirSync(path.join(dir, 'src/api', api, part), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/api', api, part, `${api}.js`), `'use strict';\nmodule.exports = require('@strapi/strapi').factories.${factory}('${uid}');\n`);
  }
}

const actions = corpus.public.flatMap((api) => (kinds.get(api) === 'singleType' ? [`api::${api}.${api}.find`] : [`api::${api}.${api}.find`, `api::${api}.${api}.findOne`]));
const locales = localesBootstrap(corpus).replace('module.exports = {', 'const locales = {');
fs.writeFileSync(path.join(dir, 'src/index.js'), `'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
${locales}
const PUBLIC_ACTIONS = ${JSON.stringify(actions)};

module.exports = {
  async bootstrap({ strapi }) {
    await locales.bootstrap({ strapi });
    const role = await strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    for (const action of PUBLIC_ACTIONS) {
      const existing = await strapi.query('plugin::users-permissions.permission').findOne({ where: { action, role: role.id } });
      if (!existing) await strapi.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
    }
    const tokens = strapi.service('admin::api-token');
    let token = await strapi.query('admin::api-token').findOne({ where: { name: 'corpus' } });
    if (!token) token = await tokens.create({ name: 'corpus', type: 'full-access', lifespan: null });
    const plaintext = crypto.randomBytes(64).toString('hex');
    await strapi.query('admin::api-token').update({ where: { id: token.id }, data: { accessKey: tokens.hash(plaintext) } });
    fs.writeFileSync(path.join(__dirname, '..', 'token.txt'), plaintext);
  },
};
`);
console.log(dir);

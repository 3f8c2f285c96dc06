#!/usr/bin/env node
/**
 * Records what a community-edition Strapi 4.26.2 answers a signed-in admin, and a caller without credentials, on the
 * admin routes a CE app does not serve as an API: the Enterprise-only routes (groups ending in `-ee` in
 * apps/example/test/admin-routes/*.tsv) and the data-transfer runner routes (mounted; Tessera has no data transfer,
 * so they are asked with it turned off; the transfer-token routes are served, record-transfer-tokens.js records them). Two requests per route, its parameters filled with plausible values; the answer
 * kept as status, content type and body (the panel's index.html named, not copied). The route table's test replays
 * them on Tessera.
 *
 *   STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true PORT=1353 DATABASE_FILENAME=.tmp/admin-route-table.db \
 *     SERVE_ADMIN_PANEL=true RESET_DB=1 SEED=20 bash ../shared/strapi4-peer/start.sh
 *   PEER_URL=http://127.0.0.1:1353 node scripts/strapi-peer/record-ce-answers.js
 *
 * The peer is `../shared/strapi4-peer` (Strapi 4.26.2, its panel built and served), started on an empty database.
 */
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '../../apps/example/test/admin-routes');
const out = path.join(dir, 'strapi-4.26.2-ce-answers.json');
const base = process.env.PEER_URL || 'http://127.0.0.1:1353';

/** `[method, path]` of the routes to ask, from the reference lists. */
function routesToAsk() {
  const rows = [];
  for (const file of ['strapi-4.26.2-admin-routes.tsv', 'strapi-4.26.2-admin-routes-more.tsv']) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const [group, method, route] = line.split('\t');
      if (group.endsWith('-ee') || route.startsWith('/admin/transfer/runner/')) rows.push([method, route]);
    }
  }
  return rows;
}

/** A concrete path for a route: parameters filled, `(collection|single)` as its first choice. */
function concrete(route) {
  const values = { provider: 'github', model_uid: 'api::article.article', workflow_id: '1' };
  return route.replace(/\((\w+)\|\w+\)/g, '$1').replace(/:(\w+)/g, (_, name) => values[name] ?? '1');
}

async function send(method, url, token, body) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, contentType: (response.headers.get('content-type') ?? '').split(';')[0], text: await response.text() };
}

async function main() {
  const registered = await send('POST', '/admin/register-admin', undefined, { email: 'ce@example.com', password: 'Password1234', firstname: 'Ce', lastname: 'Admin' });
  if (registered.status !== 200) throw new Error(`register-admin: ${registered.status} ${registered.text} (start the peer with RESET_DB=1)`);
  const token = JSON.parse(registered.text).data.token;
  const index = (await send('GET', '/admin', token)).text;
  const exchanges = [];
  for (const [method, route] of routesToAsk()) {
    const url = concrete(route);
    for (const as of ['admin', 'anonymous']) {
      const answer = await send(method, url, as === 'admin' ? token : undefined, method === 'GET' || method === 'DELETE' ? undefined : {});
      let body = answer.text;
      if (answer.contentType === 'text/html') body = answer.text === index ? '(the panel index.html)' : answer.text;
      else if (answer.contentType === 'application/json') body = JSON.parse(answer.text);
      exchanges.push({ as, method, route, path: url, status: answer.status, contentType: answer.contentType, body });
      console.log(answer.status, as, method, url);
    }
  }
  const recordedOn = `Strapi 4.26.2 community edition (shared/strapi4-peer, no licence, its built panel served, data transfer off: STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true, an empty database; as: a signed-in Super Admin or no credentials), ${new Date().toISOString().slice(0, 10)}`;
  fs.writeFileSync(out, `${JSON.stringify({ recordedOn, exchanges }, null, 1)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

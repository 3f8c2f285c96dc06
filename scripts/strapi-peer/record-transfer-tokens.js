#!/usr/bin/env node
/**
 * Records Strapi 4.26.2's answers to the panel's Settings → Transfer Tokens routes (`/admin/transfer/tokens…`, with
 * `transfer.token.salt` set, as create-strapi-app's config/admin sets it) into
 * plugins/admin/test/recorded/strapi-4.26.2-transfer-tokens.json: list, create (each lifespan, each permission set),
 * the bodies Strapi refuses, get, update, regenerate, delete, and ids that name nothing. ISO timestamps become
 * `<date>`, access keys `<accessKey>` (each is checked to be 256 hex characters first), `expiresAt` numbers
 * `<expiresAt>`.
 *
 *   PORT=1350 DATABASE_FILENAME=.tmp/transfer.db RESET_DB=1 bash ../shared/strapi4-peer/start.sh
 *   PEER_URL=http://127.0.0.1:1350 node scripts/strapi-peer/record-transfer-tokens.js
 *
 * On a fresh peer database (it registers the first admin).
 */
const fs = require('node:fs');
const path = require('node:path');

const OUT = path.join(__dirname, '..', '..', 'plugins', 'admin', 'test', 'recorded', 'strapi-4.26.2-transfer-tokens.json');
const base = process.env.PEER_URL ?? 'http://127.0.0.1:1350';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY = 24 * 60 * 60 * 1000;
const sequence = [];
let token;

const normalise = (value) =>
  JSON.parse(JSON.stringify(value), (key, item) => {
    if (key === 'accessKey' && typeof item === 'string') {
      if (!/^[0-9a-f]{256}$/.test(item)) throw new Error(`an access key that is not 256 hex characters: ${item}`);
      return '<accessKey>';
    }
    if (typeof item === 'string' && ISO.test(item)) return '<date>';
    return item;
  });

/** One exchange; `{id}` in the path is the id of the token `ids` names. */
async function call(title, method, urlPath, body, { auth = true } = {}) {
  const headers = { accept: 'application/json' };
  if (auth) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + urlPath, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = JSON.parse((await response.text()) || 'null');
  sequence.push({ title, method, path: urlPath, ...(body === undefined ? {} : { body }), status: response.status, answer: normalise(answer) });
  console.log(response.status, method, urlPath, title);
  return answer;
}

async function main() {
  const registered = await (await fetch(`${base}/admin/register-admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ firstname: 'Rec', lastname: 'Order', email: 'rec@example.com', password: 'Recorder123' }) })).json();
  token = registered.data?.token;
  if (!token) throw new Error(`register-admin: ${JSON.stringify(registered)} (start the peer with RESET_DB=1)`);

  await call('no auth', 'GET', '/admin/transfer/tokens', undefined, { auth: false });
  await call('list empty', 'GET', '/admin/transfer/tokens');
  // What the panel's create form sends: push and pull for "Full access", one of them otherwise.
  const full = await call('create full access, unlimited', 'POST', '/admin/transfer/tokens', { name: 'panel-full', description: 'both ways', lifespan: null, permissions: ['push', 'pull'] });
  const push = await call('create push 7 days', 'POST', '/admin/transfer/tokens', { name: '  panel-push  ', description: '', lifespan: 7 * DAY, permissions: ['push'] });
  await call('create pull 30 days', 'POST', '/admin/transfer/tokens', { name: 'panel-pull', lifespan: 30 * DAY, permissions: ['pull', 'pull'] });
  await call('create name taken', 'POST', '/admin/transfer/tokens', { name: 'panel-full', permissions: ['push'] });
  await call('create no name', 'POST', '/admin/transfer/tokens', { permissions: ['push'] });
  await call('create empty name', 'POST', '/admin/transfer/tokens', { name: '   ', permissions: ['push'] });
  await call('create no permissions', 'POST', '/admin/transfer/tokens', { name: 'nope' });
  await call('create empty permissions', 'POST', '/admin/transfer/tokens', { name: 'nope', permissions: [] });
  await call('create unknown permission', 'POST', '/admin/transfer/tokens', { name: 'nope', permissions: ['push', 'delete'] });
  await call('create bad lifespan', 'POST', '/admin/transfer/tokens', { name: 'nope', permissions: ['push'], lifespan: 5 });
  await call('create lifespan string', 'POST', '/admin/transfer/tokens', { name: 'nope', permissions: ['push'], lifespan: '604800000' });
  await call('create name not string', 'POST', '/admin/transfer/tokens', { name: 42, permissions: ['push'] });
  await call('create unknown key', 'POST', '/admin/transfer/tokens', { name: 'extra', permissions: ['push'], type: 'custom' });
  await call('list', 'GET', '/admin/transfer/tokens');
  await call('get', 'GET', `/admin/transfer/tokens/${full.data.id}`);
  await call('get missing', 'GET', '/admin/transfer/tokens/999');
  await call('get not a number', 'GET', '/admin/transfer/tokens/abc');
  await call('update name and permissions', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { name: ' renamed-push ', description: 'now pulls', permissions: ['pull'] });
  await call('update description null', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { description: null });
  await call('update name taken', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { name: 'panel-full' });
  await call('update own name', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { name: 'renamed-push' });
  await call('update lifespan', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { lifespan: 7 * DAY });
  await call('update empty permissions', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { permissions: [] });
  await call('update name null', 'PUT', `/admin/transfer/tokens/${push.data.id}`, { name: null });
  await call('update missing', 'PUT', '/admin/transfer/tokens/999', { name: 'ghost' });
  await call('regenerate', 'POST', `/admin/transfer/tokens/${full.data.id}/regenerate`, {});
  await call('regenerate missing', 'POST', '/admin/transfer/tokens/999/regenerate', {});
  await call('delete', 'DELETE', `/admin/transfer/tokens/${push.data.id}`);
  await call('delete missing', 'DELETE', '/admin/transfer/tokens/999');
  await call('list after', 'GET', '/admin/transfer/tokens');

  const recording = {
    strapi: '4.26.2',
    recorded: 'shared/strapi4-peer, SQLite, NODE_ENV=production, admin.transfer.token.salt set; one admin registered on a fresh database',
    normalised: 'ISO timestamps are "<date>", access keys (256 hex characters) "<accessKey>"',
    sequence,
  };
  fs.writeFileSync(OUT, `${JSON.stringify(recording, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

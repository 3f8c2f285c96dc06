/**
 * Strapi 4.26.2's answers for the panel's API-token and webhook pages, recorded on shared/strapi4-peer, into
 * plugins/admin/test/recorded/strapi-4.26.2-{api-tokens,webhooks}.json (normalised: dates, keys, the receiver).
 *
 *   node receiver.mjs &                       # the receiver on 127.0.0.1:1348 (/ok 200, /fail 500, /teapot 418)
 *   # each recorder on a fresh peer (RESET_DB=1 SEED=20; NODE_ENV=development STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true,
 *   # record-prod.mjs with NODE_ENV=production TRANSFER_TOKEN_SALT=):
 *   BASE=http://127.0.0.1:1347 node record.mjs > $DIR/peer-dev.json
 *   node record-edges.mjs > $DIR/peer-edges.json
 *   node record-prod.mjs > $DIR/peer-prod.json
 *   node make-json.mjs $DIR
 */
import fs from 'node:fs';
const dev = JSON.parse(fs.readFileSync(process.argv[2] + '/peer-dev.json'));
const edges = JSON.parse(fs.readFileSync(process.argv[2] + '/peer-edges.json'));
const prod = JSON.parse(fs.readFileSync(process.argv[2] + '/peer-prod.json'));
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
function norm(value, key) {
  if (typeof value === 'string') {
    if (ISO.test(value)) return '<date>';
    if (key === 'accessKey') return '<accessKey>';
    return value.replaceAll('http://127.0.0.1:1348', '<receiver>');
  }
  if (Array.isArray(value)) return value.map((v) => norm(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, norm(v, k)]));
  return value;
}
const strip = (c) => { const o = { title: c.label, method: c.method, path: c.path }; if (c.body !== undefined) o.body = norm(c.body); o.status = c.status; o.answer = norm(c.response); return o; };
const tokensDev = dev.calls.filter((c) => /^(tokens|content-api: permissions no auth|transfer|api token on admin)/.test(c.label)).map(strip);
const webhooksDev = dev.calls.filter((c) => /^webhooks/.test(c.label)).map(strip);
const tokensEdges = edges.calls.filter((c) => /^tokens/.test(c.label) && !/body string/.test(c.label)).map(strip);
const webhooksEdges = edges.calls.filter((c) => /^webhooks/.test(c.label)).map(strip);
// The edge sequences name the ids of a fresh database: placeholders the tests fill with their own.
for (const c of tokensEdges) if (c.path === '/admin/api-tokens/9') c.path = '/admin/api-tokens/{base}';
for (const c of webhooksEdges) {
  if (c.path === '/admin/webhooks/4') c.path = '/admin/webhooks/{good}';
  if (c.body?.id === 4) c.body.id = '{good}';
  if (JSON.stringify(c.body?.ids) === '["abc","4"]') {
    c.body.ids = ['abc', '{good}'];
    c.answer.data = ['abc', '{good}'];
  }
}
const prodCalls = prod.calls.filter((c) => /^production/.test(c.label)).map(strip);
const transferNoSalt = prod.calls.filter((c) => /^transfer/.test(c.label)).map(strip);
const contentApi = Object.fromEntries(dev.calls.filter((c) => /^content-api: (permissions|routes)$/.test(c.label)).map((c) => [c.label.split(': ')[1], c.response]));
const header = (what) => ({ strapi: '4.26.2', recorded: 'shared/strapi4-peer, SQLite, NODE_ENV=development, STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true, with the bootstrap\'s full-access token "peer-full-access" as token 1; one admin registered', normalised: 'ISO timestamps are "<date>", access keys "<accessKey>", the receiver\'s origin "<receiver>" (it answered /ok 200 "ok", /fail 500 "receiver broke", /teapot 418 "short and stout")', what });
fs.writeFileSync(new URL('../../../plugins/admin/test/recorded/', import.meta.url).pathname + 'strapi-4.26.2-api-tokens.json', JSON.stringify({ ...header('API tokens, content-API catalogue, transfer tokens: one sequence (sequence), then edge cases on a fresh database (edges; {base} is the id of the token the edge sequence creates as "edge-18")'), sequence: tokensDev, edges: tokensEdges, transferWithoutSalt: transferNoSalt, contentApi }, null, 1) + '\n');
fs.writeFileSync(new URL('../../../plugins/admin/test/recorded/', import.meta.url).pathname + 'strapi-4.26.2-webhooks.json', JSON.stringify({ ...header('webhooks: one sequence (sequence), edge cases on a fresh database (edges), and NODE_ENV=production refusals (production)'), sequence: webhooksDev, edges: webhooksEdges, production: prodCalls }, null, 1) + '\n');

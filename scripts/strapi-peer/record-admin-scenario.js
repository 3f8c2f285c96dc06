#!/usr/bin/env node
/**
 * Records a real Strapi's admin answers into a scenario file, so tests can
 * hold Tessera to them. A scenario is a list of steps run in order on a fresh
 * database: `{ title, as?, method, path, body? | rawBody?, capture? }`, where
 * `as` names an admin token captured earlier, `$name` in a path or body is an
 * earlier capture, and `capture` takes values from the answer (`{ name:
 * 'data.token' }`) or a reset token from the peer's database (`{ name: {
 * resetTokenOf: email } }`: the peer sends no mail). This fills in each step's
 * `status` and `answer` (timestamps, JWTs and 40-hex tokens normalised) and
 * keeps the `tessera` notes where Tessera answers differently on purpose.
 *
 *   PEER_URL=http://127.0.0.1:1342 PEER_DB=/tmp/strapi4-peer/strapi4-app/.tmp/admin-users.db \
 *     node scripts/strapi-peer/record-admin-scenario.js plugins/admin/test/recorded/strapi-4.26.2-users.json
 *
 * The peer is `../shared/strapi4-peer` (Strapi 4.26.2, SQLite), started with RESET_DB=1.
 */
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

const normalise = (value) => {
  if (typeof value === 'string') {
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value)) return '<timestamp>';
    if (/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) return '<jwt>';
    if (/^[0-9a-f]{40}$/.test(value)) return '<token>';
    return value;
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalise(inner)]));
  return value;
};

async function main() {
  const [file] = process.argv.slice(2);
  const base = process.env.PEER_URL;
  const database = process.env.PEER_DB;
  if (!file || !base || !database) throw new Error('usage: PEER_URL=… PEER_DB=<sqlite file> record-admin-scenario.js <scenario.json>');
  const scenario = JSON.parse(fs.readFileSync(file, 'utf8'));
  const vars = new Map();
  const fill = (value) => {
    if (typeof value === 'string') return value.replace(/\$([A-Za-z]+)/g, (whole, name) => vars.get(name) ?? whole);
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    return value;
  };
  for (const step of scenario.steps) {
    const headers = { 'content-type': 'application/json' };
    if (step.as) headers.authorization = `Bearer ${vars.get(step.as)}`;
    const body = step.rawBody !== undefined ? step.rawBody : step.body !== undefined ? JSON.stringify(fill(step.body)) : undefined;
    const response = await fetch(base + fill(step.path), { method: step.method, headers, body });
    const text = await response.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = text;
    }
    for (const [name, from] of Object.entries(step.capture ?? {})) {
      if (typeof from === 'string') {
        vars.set(name, from.split('.').reduce((value, key) => value?.[key], answer));
        continue;
      }
      // Strapi writes the reset token after its 204: wait for it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const email = String(from.resetTokenOf).replace(/'/g, "''");
      vars.set(name, execFileSync('sqlite3', [database, `select reset_password_token from admin_users where email = '${email}'`]).toString().trim());
    }
    step.status = response.status;
    step.answer = normalise(answer);
    console.log(response.status, step.title);
  }
  fs.writeFileSync(file, `${JSON.stringify(scenario, null, 1)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

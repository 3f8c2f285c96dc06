#!/usr/bin/env node
/**
 * Records a real Strapi's answers into a replay file, so tests can hold
 * Tessera to them. The file names its seed (entries created in order through
 * REST, on an empty database, so ids are 1, 2, … per type) and its requests;
 * this fills in each request's `strapi: { status, body }` (and its
 * `equivalent`'s, when it names one) and the top-level
 * `strapi` version, and writes the file back.
 *
 *   PEER_URL=http://127.0.0.1:1391 PEER_TOKEN=$(cat /tmp/…/strapi4-token.txt) \
 *     node scripts/strapi-peer/record.js plugins/rest/test/replays/populate-forms.json
 *
 * The peer is `../shared/strapi4-peer` (Strapi 4.26.2), started with RESET_DB=1 and no SEED.
 */
const fs = require('node:fs');

async function main() {
  const [file] = process.argv.slice(2);
  const base = process.env.PEER_URL;
  const token = process.env.PEER_TOKEN;
  if (!file || !base || !token) throw new Error('usage: PEER_URL=… PEER_TOKEN=… record.js <replay.json>');
  const replay = JSON.parse(fs.readFileSync(file, 'utf8'));
  const auth = { authorization: `Bearer ${token}` };
  for (const [index, entry] of (replay.seed ?? []).entries()) {
    const response = await fetch(`${base}/api/${entry.type}`, {
      method: entry.method ?? 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ data: entry.data }),
    });
    if (response.status !== 200) throw new Error(`seed ${index} (${entry.type}): ${response.status} ${await response.text()}`);
  }
  for (const request of replay.requests) {
    const response = await fetch(`${base}${request.path}`, { headers: request.auth === 'token' ? auth : {} });
    const text = await response.text();
    request.strapi = { status: response.status, body: text === '' ? null : JSON.parse(text) };
    console.log(response.status, request.path);
    if (request.equivalent) {
      // A request Strapi 4.26 answers 500 but an earlier 4.x understood: what it meant, asked in a form 4.26 reads.
      const meant = await fetch(`${base}${request.equivalent.path}`, { headers: request.auth === 'token' ? auth : {} });
      const meantText = await meant.text();
      request.equivalent.strapi = { status: meant.status, body: meantText === '' ? null : JSON.parse(meantText) };
      console.log(' ', meant.status, request.equivalent.path);
    }
  }
  replay.strapi = process.env.PEER_VERSION ?? '4.26.2';
  replay.recordedAt = new Date().toISOString().slice(0, 10);
  fs.writeFileSync(file, `${JSON.stringify(replay, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

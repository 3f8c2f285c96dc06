#!/usr/bin/env node
/**
 * Records Strapi's answers to a frontend corpus (see corpus-app.js): seeds the
 * empty peer exactly as the test seeds Tessera, asks each request, and writes
 * its status and the shape of its body (keys, types, list lengths) into the
 * corpus file as `strapi`, with `strapiVersion`.
 *
 *   node -r sucrase/register/ts scripts/strapi-peer/record-corpus.js <corpus.json> <peer url> <token file>
 */
require('sucrase/register/ts');
const fs = require('node:fs');
const path = require('node:path');
const { CORPUS_DIR, PNG, comparedBody, jwtOf, readCorpus, seedCorpus, shapeOf } = require('../../apps/example/test/frontend-corpus/corpus.ts');

async function main() {
  const [name, base, tokenFile] = process.argv.slice(2);
  if (!name || !base || !tokenFile) throw new Error('usage: record-corpus.js <corpus.json> <peer url> <token file>');
  const token = fs.readFileSync(tokenFile, 'utf8').trim();
  const corpus = readCorpus(name);
  const auth = { authorization: `Bearer ${token}` };
  const send = async (method, pathAndQuery, body) => {
    const response = await fetch(`${base}${pathAndQuery}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  };
  send.upload = async (fileName) => {
    const form = new FormData();
    form.append('files', new Blob([PNG], { type: 'image/png' }), fileName);
    const response = await fetch(`${base}/api/upload`, { method: 'POST', body: form, headers: auth });
    return { status: response.status, text: await response.text() };
  };
  await seedCorpus(corpus, send);
  let jwt = null;
  for (const request of corpus.requests) {
    const bearer = request.auth === 'token' ? auth : request.auth === 'jwt' ? { authorization: `Bearer ${jwt}` } : {};
    const response = await fetch(`${base}${request.path}`, {
      method: request.method ?? 'GET',
      headers: { ...bearer, ...(request.body ? { 'content-type': 'application/json' } : {}) },
      body: request.body ? JSON.stringify(request.body) : undefined,
    });
    const text = await response.text();
    jwt = jwtOf(text) ?? jwt;
    request.strapi = { status: response.status, shape: shapeOf(comparedBody(request, text === '' ? null : JSON.parse(text))) };
    console.log(response.status, request.status === response.status ? '' : `(corpus expects ${request.status})`, request.path.slice(0, 160));
    if (request.equivalent) {
      const meant = await fetch(`${base}${request.equivalent.path}`, { headers: request.auth === 'token' ? auth : {} });
      const meantText = await meant.text();
      request.equivalent.strapi = { status: meant.status, shape: shapeOf(meantText === '' ? null : JSON.parse(meantText)) };
      console.log('  equivalent:', meant.status);
    }
  }
  corpus.strapiVersion = process.env.PEER_VERSION ?? '4.26.2';
  fs.writeFileSync(path.join(CORPUS_DIR, name), `${JSON.stringify(corpus, null, 1)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

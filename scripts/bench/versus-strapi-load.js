'use strict';
/**
 * The load of scripts/bench/versus-strapi.sh: the issue-24 scenarios (scenarios.js) against one server, a line
 * each (`name req/s`), 32 connections, 1 s warm-up then DUR (10) s. Create runs last: it adds articles.
 *   node versus-strapi-load.js <url> <token> [scenario,…]
 *   node versus-strapi-load.js --compare <strapi.txt> <tessera.txt>     the table, with Tessera ÷ Strapi
 */
const fs = require('node:fs');
const autocannon = require('autocannon');
const { scenarios, requestsFor } = require('./scenarios');

const PICKED = ['list', 'list-search', 'get-one', 'populate-star', 'graphql-list', 'create'];
const DURATION = Number(process.env.DUR || 10);

/** Published ids of the peer's seed: every third article is a draft. */
function getOneRequests() {
  const ids = Array.from({ length: 10000 }, (_, index) => index + 1).filter((id) => id % 3 !== 0);
  let cursor = 0;
  return () => {
    cursor = (cursor + 7919) % ids.length;
    return { method: 'GET', path: `/api/articles/${ids[cursor]}`, headers: {} };
  };
}

function run(url, next, duration) {
  return autocannon({
    url,
    connections: 32,
    duration,
    pipelining: 1,
    requests: [
      {
        setupRequest: (request) => {
          const item = next();
          const body = item.body === undefined ? undefined : JSON.stringify(item.body);
          return { ...request, method: item.method, path: item.path, headers: { ...request.headers, ...item.headers }, body };
        },
      },
    ],
  });
}

async function measure(url, token, only) {
  const wanted = only ? only.split(',') : PICKED;
  for (const scenario of scenarios(token).filter((item) => PICKED.includes(item.name) && wanted.includes(item.name))) {
    const next = scenario.name === 'get-one' ? getOneRequests() : requestsFor(scenario, `versus-${Date.now()}`);
    await run(url, next, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const result = await run(url, next, DURATION);
    const failed = result.non2xx + result.errors;
    console.log(`${scenario.name} ${Math.round(result.requests.average)}${failed ? ` (${failed} failed)` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}

function compare(strapiFile, tesseraFile) {
  const read = (file) => new Map(fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => [line.split(' ')[0], Number(line.split(' ')[1])]));
  const strapi = read(strapiFile);
  const tessera = read(tesseraFile);
  console.log('| scenario | Strapi 4.26.2 req/s | Tessera req/s | Tessera ÷ Strapi |\n|---|---:|---:|---:|');
  for (const [name, rps] of strapi) {
    console.log(`| ${name} | ${rps.toLocaleString('en')} | ${tessera.get(name).toLocaleString('en')} | ${(tessera.get(name) / rps).toFixed(1)}× |`);
  }
}

if (process.argv[2] === '--compare') compare(process.argv[3], process.argv[4]);
else measure(process.argv[2], process.argv[3], process.argv[4]).catch((error) => {
  console.error(error);
  process.exit(1);
});

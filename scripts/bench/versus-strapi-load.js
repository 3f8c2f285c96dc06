'use strict';
/**
 * The load of scripts/bench/versus-strapi.sh: the scenarios of scenarios.js against one server, a line each
 * (`name req/s`), BENCH_CONNECTIONS (32) connections, 1 s warm-up then DUR (10) s. Create runs last: it adds
 * articles. BENCH_MODE varied (default) or fixed, BENCH_SEED as for `npm run bench`: in varied mode both servers
 * get the same sequence of requests. BENCH_ARTICLES: how many articles the database holds (10,000).
 *   node versus-strapi-load.js <url> <token> [scenario,…]
 *   node versus-strapi-load.js --compare <strapi.txt> <tessera.txt>     the table, with Tessera ÷ Strapi
 */
const fs = require('node:fs');
const { scenarios, requestsFor } = require('./scenarios');
const { run } = require('./load');

const PICKED = ['list', 'list-search', 'get-one', 'populate-star', 'graphql-list', 'slug-populate', 'create'];
const DURATION = Number(process.env.DUR || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 10000);

async function measure(url, token, only) {
  const wanted = only ? only.split(',') : PICKED;
  for (const scenario of scenarios(token, { articles: ARTICLES }).filter((item) => PICKED.includes(item.name) && wanted.includes(item.name))) {
    // The peer's seed drafts every third article and names slugs article-N, as the bench's does: the same ids and slugs.
    const next = requestsFor(scenario, `versus-${Date.now()}`);
    await run(url, next, { connections: CONNECTIONS, duration: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const result = await run(url, next, { connections: CONNECTIONS, duration: DURATION });
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
  const memory = [strapiFile, tesseraFile].map((file) => peakMemory(file.replace(/\.txt$/, '.memory.jsonl')));
  if (memory.every(Boolean)) {
    const [s, t] = memory;
    console.log(`\nresident set at its peak while measured (MiB): Strapi ${s.rss}, Tessera ${t.rss}, Tessera ÷ Strapi ${(t.rss / s.rss).toFixed(2)}`);
    console.log('| at the peak (MiB) | rss | of it, mapped files | V8 heap | new space | old space | large objects | code | outside V8 (external) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, m] of [['Strapi 4.26.2', s], ['Tessera', t]]) {
      console.log(`| ${name} | ${m.rss} | ${m.files ?? '?'} | ${m.heapTotal} | ${m.newSpace} | ${m.oldSpace} | ${m.largeObjects} | ${m.code} | ${m.external} |`);
    }
  }
}

/** The sample of memory-sampler.js with the largest resident set, or undefined when the server was not sampled. */
function peakMemory(file) {
  if (!fs.existsSync(file)) return undefined;
  const samples = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  return samples.reduce((peak, sample) => (peak === undefined || sample.rss > peak.rss ? sample : peak), undefined);
}

if (process.argv[2] === '--compare') compare(process.argv[3], process.argv[4]);
else measure(process.argv[2], process.argv[3], process.argv[4]).catch((error) => {
  console.error(error);
  process.exit(1);
});

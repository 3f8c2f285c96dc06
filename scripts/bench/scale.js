'use strict';
/**
 * `npm run bench:scale`: how Tessera's throughput holds up as the content
 * grows, per database, and what a second worker process adds.
 *
 *   for each database (SQLite; PostgreSQL when reachable):
 *     10,000 articles without the search/index options (what writes cost without them)
 *     200,000 articles without them
 *     10,000 and 200,000 articles with them (seed.js addIndexOptions)
 *     10,000 articles with them, on 2 worker processes
 *   → per configuration: seed, start Tessera, measure each scenario, clean up
 *   → report: req/s per scenario and configuration, 200k/10k ratios,
 *     written to scripts/bench/scale-last-run.md
 *
 * Tessera only (the baseline comparison is `npm run bench`). Options (env):
 * BENCH_DURATION (s, default 5), BENCH_CONNECTIONS (32), BENCH_LARGE (200000),
 * BENCH_DATABASES (sqlite,postgres), BENCH_ONLY (scenario names),
 * BENCH_CONFIGS (configuration keys: plain-10k, 10k, plain-200k, 200k (the BENCH_LARGE ones), workers-10k).
 */
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { seed, dropDatabase, publishedIds, postgresReachable, POSTGRES } = require('./seed');
const { startChild, stopChild, registerFolder, cleanup, cleanupOnSignals } = require('./children');
const { measure } = require('./load');
const { mulberry32, SEED } = require('./scenarios');

process.env.SEED = 'false';

const SMALL = 10_000;
const LARGE = Number(process.env.BENCH_LARGE ?? 200_000);
const settings = {
  duration: Number(process.env.BENCH_DURATION ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  warmup: 1,
};

const get = (requestPath) => ({ method: 'GET', path: requestPath, headers: {} });

/** The scenarios; `articles` is the seeded size (get-one walks its published ids). */
function scenarios(token, articles) {
  const published = publishedIds(articles);
  let cursor = 0;
  let counter = 0;
  return [
    { name: 'list', title: 'list, 25 + count', next: () => get('/api/articles?pagination[pageSize]=25') },
    { name: 'search-2', title: '`title $containsi 99` + sort views (2 chars: scan)', next: () => get('/api/articles?filters[title][$containsi]=99&sort=views:desc') },
    { name: 'search-3', title: '`title $containsi "99:"` + sort views (indexed)', next: () => get('/api/articles?filters[title][$containsi]=99%3A&sort=views:desc') },
    { name: 'search-word', title: '`title $containsi latency` + sort views (~10% match)', next: () => get('/api/articles?filters[title][$containsi]=latency&sort=views:desc') },
    // A search box's traffic: a new term each request (10..999, `npm run bench`'s sequence), so no total is reused.
    { name: 'search-new', title: '`title $containsi <new term each time>` + sort views', next: searchTerms() },
    {
      name: 'get-one',
      title: 'get one',
      next: () => get(`/api/articles/${published[(cursor = (cursor + 7919) % published.length)]}`),
    },
    {
      name: 'create',
      title: 'create',
      next: () => ({
        method: 'POST',
        path: '/api/articles',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: { data: { title: `Scale ${process.pid} ${(counter += 1)}`, slug: `scale-${process.pid}-${counter}`, views: counter } },
      }),
    },
    {
      name: 'list-uncached',
      title: 'list, 25 + count, a new filter each time (count never cached)',
      next: () => get(`/api/articles?pagination[pageSize]=25&filters[views][$gte]=${(counter += 1)}`),
    },
  ].filter((scenario) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(scenario.name));
}

/** Requests for a new search term each time, from BENCH_SEED's sequence (every run sends the same ones). */
function searchTerms() {
  const random = mulberry32(SEED);
  return () => get(`/api/articles?filters[title][$containsi]=${10 + Math.floor(random() * 990)}&sort=views:desc`);
}

function configurations(databases) {
  const list = [];
  for (const dialect of databases) {
    list.push({ dialect, key: 'plain-10k', articles: SMALL, indexes: false, workers: 1, label: `${SMALL / 1000}k, no search/index options` });
    list.push({ dialect, key: '10k', articles: SMALL, indexes: true, workers: 1, label: `${SMALL / 1000}k` });
    list.push({ dialect, key: 'plain-200k', articles: LARGE, indexes: false, workers: 1, label: `${LARGE / 1000}k, no search/index options` });
    list.push({ dialect, key: '200k', articles: LARGE, indexes: true, workers: 1, label: `${LARGE / 1000}k` });
    list.push({ dialect, key: 'workers-10k', articles: SMALL, indexes: true, workers: 2, label: `${SMALL / 1000}k, 2 workers` });
  }
  const chosen = process.env.BENCH_CONFIGS?.split(',');
  return chosen ? list.filter((configuration) => chosen.includes(configuration.key)) : list;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function runConfiguration(configuration) {
  const started = Date.now();
  console.log(`\n${configuration.dialect}, ${configuration.label}: seeding ${configuration.articles.toLocaleString('en-US')} articles…`);
  const seeded = await seed(configuration);
  registerFolder(seeded.dir);
  console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const server = await startChild(path.join(__dirname, 'scale-server.js'), {
    name: 'Tessera',
    env: { BENCH_APP: JSON.stringify({ dir: seeded.dir, config: seeded.config, workers: configuration.workers, port: await freePort() }) },
  });
  const results = {};
  try {
    for (const scenario of scenarios(seeded.token, configuration.articles)) {
      const result = await measure(server, scenario.next, settings);
      results[scenario.name] = { ...result, title: scenario.title };
      const failed = result.failures > 0 ? ` (${result.failures} failed!)` : '';
      console.log(`  ${scenario.title}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${failed}`);
    }
  } finally {
    await stopChild(server.child);
    await dropDatabase(seeded.database);
  }
  return { configuration, results };
}

const formatRps = (result) => (result ? Math.round(result.rps).toLocaleString('en-US') + (result.failures > 0 ? ' ⚠' : '') : '—');

function table(runs) {
  const names = Object.keys(runs[0].results);
  const lines = [];
  for (const dialect of [...new Set(runs.map((run) => run.configuration.dialect))]) {
    const mine = runs.filter((run) => run.configuration.dialect === dialect);
    const small = mine.find((run) => run.configuration.indexes && run.configuration.workers === 1 && run.configuration.articles === SMALL);
    const large = mine.find((run) => run.configuration.indexes && run.configuration.articles === LARGE);
    const headers = ['scenario', ...mine.map((run) => run.configuration.label), `${LARGE / 1000}k / ${SMALL / 1000}k`];
    lines.push(`**${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}** (req/s)`, '', `| ${headers.join(' | ')} |`, `| --- | ${headers.slice(1).map(() => '---:').join(' | ')} |`);
    for (const name of names) {
      const ratio = small && large ? (large.results[name].rps / small.results[name].rps).toFixed(2) : '—';
      lines.push(`| ${runs[0].results[name].title} | ${mine.map((run) => formatRps(run.results[name])).join(' | ')} | ${ratio} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function main() {
  cleanupOnSignals();
  const started = Date.now();
  let databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
  if (databases.includes('postgres') && !(await postgresReachable())) {
    console.warn('PostgreSQL is not reachable: measuring SQLite only');
    databases = databases.filter((name) => name !== 'postgres');
  }
  const runs = [];
  for (const configuration of configurations(databases)) runs.push(await runConfiguration(configuration));
  const cpus = os.cpus();
  const markdown = [
    '# Tessera scale bench — last run',
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${cpus.length} × ${cpus[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM; node ${process.version}`,
    `- load: ${settings.connections} connections, ${settings.duration} s per scenario after a ${settings.warmup} s warm-up, load generator on the same machine`,
    '- data: articles (every third a draft), 10 categories, 20 tags, 20 writers; scenarios run in the order listed (create and the uncached list last: their writes and backlog must not fall on the others)',
    '',
    table(runs),
  ].join('\n');
  fs.writeFileSync(path.join(__dirname, 'scale-last-run.md'), `${markdown}\n`);
  console.log(`\n${markdown}\nwritten to scripts/bench/scale-last-run.md; done in ${Math.round((Date.now() - started) / 1000)} s`);
}

main()
  .then(() => cleanup())
  .catch(async (error) => {
    console.error(`\nscale bench failed: ${error.stack}`);
    await cleanup();
    process.exitCode = 1;
  });

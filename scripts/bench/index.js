'use strict';
/**
 * `npm run bench`: Tessera against a bare baseline on the same data and SQL.
 *
 *   seed → start Tessera (child) → capture its SQL per scenario → start the
 *   baseline (child) with that SQL → per scenario: verify both answer the same
 *   samples, then measure Tessera and the baseline → report → clean up.
 *
 * Options (env): BENCH_MODE (varied, the default: every request differs, from
 * a sequence seeded by BENCH_SEED; or fixed: one URL per scenario; see
 * scenarios.js), BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default
 * 32), BENCH_WARMUP (s, default 1), BENCH_ONLY (comma list of scenario names),
 * BENCH_DATABASES (default sqlite,postgres,mysql; a server that does not
 * answer is skipped with a message). Each database has its own bare baseline
 * running the same SQL (baseline-database.js: better-sqlite3, pg with named
 * prepared statements, or mysql2).
 * Flags: --quick (3 s per scenario), --profile (Tessera and the baseline run
 * under --cpu-prof; profiles land in scripts/bench/profiles/, the baseline's
 * as baseline.cpuprofile; see profile.js).
 */
const path = require('node:path');
const fs = require('node:fs');
const { seed } = require('./seed');
const { dropDatabase, reachable, serverAddress, POSTGRES, MYSQL } = require('./database-servers');
const { startChild, stopChild, registerFolder, cleanup, cleanupOnSignals } = require('./children');
const { scenarios, requestsFor, requestOf, samplesFor, routeOf, MODE, PAGE_SIZE } = require('./scenarios');
const { DEEP_OFFSET } = require('@tessera/database');
const { verifySame } = require('./verify');
const { measure } = require('./load');
const { report } = require('./report');

// The bench seeds its own 10,000 articles: the example app's first-run sample content must stay out.
process.env.SEED = 'false';

const args = new Set(process.argv.slice(2));
const settings = {
  duration: Number(process.env.BENCH_DURATION ?? (args.has('--quick') ? 3 : 10)),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  warmup: Number(process.env.BENCH_WARMUP ?? 1),
  mode: MODE,
  seed: require('./scenarios').SEED,
};
const DATABASE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB' };
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : undefined;
const PROFILE_DIR = path.join(__dirname, 'profiles');

async function main() {
  cleanupOnSignals();
  const started = Date.now();
  const list = scenarios('').filter((scenario) => !only || only.has(scenario.name));
  if (list.length === 0) throw new Error(`BENCH_ONLY matches no scenario`);
  const databases = [];
  for (const dialect of (process.env.BENCH_DATABASES ?? 'sqlite,postgres,mysql').split(',')) {
    if (!DATABASE_NAMES[dialect]) throw new Error(`BENCH_DATABASES: unknown database "${dialect}" (sqlite, postgres, mysql)`);
    if (dialect === 'sqlite' || (await reachable(dialect))) databases.push(dialect);
    else console.warn(`${DATABASE_NAMES[dialect]} is not reachable at ${serverAddress(dialect)}: not measured`);
  }
  console.log(`mode: ${MODE}${MODE === 'varied' ? ` (every request differs; BENCH_SEED ${settings.seed})` : ' (one URL per scenario: identical concurrent requests)'}`);
  const results = [];
  for (const dialect of databases) results.push({ dialect, ...(await benchDatabase(dialect, list)) });
  report(results, settings);
  const failures = results.flatMap(({ rows }) => rows.filter((row) => row.error || row.tessera.failures + row.baseline.failures > 0));
  if (failures.length > 0) throw new Error(`scenarios failed or had failed requests: ${failures.map((row) => row.scenario.name).join(', ')}`);
  console.log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Seeds one database, starts Tessera and the baseline on it, and measures every scenario. */
async function benchDatabase(dialect, list) {
  console.log(`\n== ${DATABASE_NAMES[dialect]}: seeding 10,000 articles…`);
  const seeded = await seed({ dialect });
  registerFolder(seeded.dir);
  try {
    const chosen = scenarios(seeded.token).filter((scenario) => list.some((s) => s.name === scenario.name));
    const execArgv = [];
    if (args.has('--profile')) {
      fs.mkdirSync(PROFILE_DIR, { recursive: true });
      execArgv.push('--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`);
    }
    const tessera = await startChild(path.join(__dirname, 'tessera-server.js'), {
      name: 'Tessera',
      execArgv,
      env: { BENCH_APP: JSON.stringify({ dir: seeded.dir, config: seeded.config }) },
    });

    // Tessera's SQL per scenario, from its first sample request; a paged scenario's first page apart (no OFFSET).
    const samples = new Map();
    const plans = new Map();
    const headers = new Map();
    for (const scenario of chosen) {
      const sampled = samplesFor(scenario);
      samples.set(scenario.name, sampled);
      // A read's SQL is that of its second request: the first after boot may also fill a cache (the public role's
      // permissions, which another connection's write notification may have dropped), SQL no later request runs.
      // A write is sent once (its sample may carry unique values): the capture is its first sample's verification.
      if (scenario.read) await capture(tessera, scenario, sampled[0].tessera);
      sampled[0].firstCapture = await capture(tessera, scenario, sampled[0].tessera);
      plans.set(scenario.name, sampled[0].firstCapture.queries);
      headers.set(scenario.name, sampled[0].firstCapture.headers);
      // A read again with its total held: the page alone (the capture before counted it with the page).
      if (scenario.read) plans.set(`${scenario.name}~warm`, (await capture(tessera, scenario, sampled[0].tessera, true)).queries);
      const firstPage = scenario.vary === 'page' && sampled.find((sample, index) => index > 0 && sample.value === 1);
      if (firstPage) {
        plans.set(`${scenario.name}@1`, (await capture(tessera, scenario, firstPage.tessera)).queries);
        plans.set(`${scenario.name}@1~warm`, (await capture(tessera, scenario, firstPage.tessera, true)).queries);
      }
      // A page from DEEP_OFFSET on may be read ids first (packages/database sql/deep-page.ts): its statements apart
      // too, from a page no sample asks for, so the deep sample (213) still checks that the baseline binds its own.
      const deepPage = Math.floor(DEEP_OFFSET / PAGE_SIZE) + 2;
      if (scenario.vary === 'page' && scenario.mode === 'varied' && deepPage <= scenario.population.pages) {
        const request = requestOf(scenario, deepPage);
        plans.set(`${scenario.name}@deep`, (await capture(tessera, scenario, request)).queries);
        plans.set(`${scenario.name}@deep~warm`, (await capture(tessera, scenario, request, true)).queries);
      }
    }

    const poolMax = seeded.config.database.connection.pool?.max;
    const database =
      dialect === 'postgres'
        ? { dialect, connection: { ...POSTGRES, schema: seeded.database.schema }, poolMax }
        : dialect === 'mysql'
          ? { dialect, connection: { ...MYSQL, database: seeded.database.schema }, poolMax }
          : { dialect, file: seeded.dbFile };
    const baseline = await startChild(path.join(__dirname, 'baseline-server.js'), {
      name: 'baseline',
      execArgv: args.has('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, '--cpu-prof-name=baseline.cpuprofile'] : [],
      env: {
        BENCH_BASELINE: JSON.stringify({
          database,
          salt: seeded.config.admin.apiToken.salt,
          plans: Object.fromEntries(plans),
          deepOffset: DEEP_OFFSET,
          routes: Object.fromEntries(chosen.filter((scenario) => scenario.read).map((scenario) => [scenario.name, routeOf(scenario)])),
          // The same headers as Tessera's answer to each scenario (verify.js compares them).
          headers: Object.fromEntries(headers),
        }),
      },
    });

    const rows = [];
    const notes = [];
    for (const scenario of chosen) {
      try {
        rows.push(await runScenario(scenario, tessera, baseline, samples.get(scenario.name), notes));
      } catch (error) {
        // Loud, but the other scenarios still run: the table shows which one failed and the exit code is 1.
        console.error(`\n✗ ${error.message}\n`);
        rows.push({ scenario, error: error.message.split('\n')[0] });
      }
    }
    await stopChild(tessera.child); // flushes the CPU profile when profiling
    await stopChild(baseline.child);
    return { rows, notes };
  } finally {
    await dropDatabase(seeded.database);
  }
}

/** Tessera's answer to `request` and the SQL it ran; throws when Tessera failed. */
async function capture(tessera, scenario, request, warm = false) {
  const result = await tessera.request({ type: 'capture', request, warm });
  if (result.error) throw new Error(`scenario "${scenario.name}": Tessera failed: ${result.error}`);
  return result;
}

/**
 * Verifies one scenario on each of its samples (different values: a baseline that ignored the value would answer
 * one of them wrongly), then measures Tessera and the baseline on it.
 */
async function runScenario(scenario, tessera, baseline, samples, notes) {
  let check;
  let queries;
  for (const [index, sample] of samples.entries()) {
    // Reads are captured again now: an earlier create sample may have changed totals since. A create's first
    // sample was sent once already, to capture its SQL.
    const tesseraResult = scenario.read || index > 0 ? await tessera.request({ type: 'capture', request: sample.tessera }) : sample.firstCapture;
    const baselineResult = await baseline.request({ type: 'capture', request: sample.baseline });
    check = verifySame(scenario, tesseraResult, baselineResult, sample, sample.value);
    queries ??= tesseraResult.queries.length;
  }
  const values = samples.map((sample) => sample.value).filter((value) => value !== undefined);
  console.log(
    `${scenario.title}: same answers to ${samples.length} sample${samples.length > 1 ? 's' : ''}${values.length ? ` (${values.join(', ')})` : ''}` +
      ` (${check.bytes} bytes${check.identicalBytes ? ', byte-identical' : ''}), ${queries} SQL statements`,
  );

  const tesseraLoad = await measure(tessera, requestsFor(scenario, 'tessera'), settings);
  const baselineLoad = await measure(baseline, requestsFor(scenario, 'baseline'), settings);
  const cpu = (load) => (load.cpuPerRequest === undefined ? '' : ` (${Math.round(load.cpuPerRequest)} µs CPU each)`);
  console.log(
    `  Tessera ${Math.round(tesseraLoad.rps)} req/s${cpu(tesseraLoad)}, baseline ${Math.round(baselineLoad.rps)} req/s${cpu(baselineLoad)} → ${(tesseraLoad.rps / baselineLoad.rps).toFixed(2)}`,
  );
  const request = !scenario.read ? 'POST /api/articles' : scenario.graphql ? `POST /graphql ${scenario.mode === 'varied' ? scenario.template : 'first page'}` : scenario.mode === 'varied' || !scenario.fixedPath ? scenario.template : scenario.fixedPath;
  notes.push(`- ${scenario.name}: \`${request}\` — ${queries} statements, ${check.bytes} bytes`);
  return { scenario, tessera: tesseraLoad, baseline: baselineLoad };
}

main()
  .then(() => cleanup())
  .catch(async (error) => {
    console.error(`\nbench failed: ${error.message}`);
    await cleanup();
    process.exitCode = 1;
  });

#!/usr/bin/env node
/**
 * Test runner: type-checks the test files (tsconfig.test.json, incremental:
 * mocha runs them through sucrase, which checks nothing), finds PostgreSQL
 * and MySQL/MariaDB, then runs every package's mocha tests on SQLite and
 * (when reachable) PostgreSQL and MySQL. Under CI=true an unreachable server
 * database is a failure, never a silent skip. Ends with "N passed, N failed".
 *
 * Test files run in parallel, one mocha worker process per core (at least
 * two; TESSERA_TEST_JOBS sets the number): much of a run waits on npm
 * installs, child servers and databases, and serially the suite outgrew CI's
 * 15 minutes. Every test makes its own app folder and database, so files do
 * not share state.
 *
 * Nothing a test starts or makes may outlive the run: every run gets its own
 * temporary folder (TMPDIR, so os.tmpdir() in every test process), and every
 * process of the run carries TESSERA_TEST_RUN in its environment. When mocha
 * has finished, a process still carrying it is killed and a non-empty
 * temporary folder listed: either fails the run (one more failure in the
 * count line), then the folder is removed. The ecosystem suite's npm install
 * stays in the real temporary folder (TESSERA_ECOSYSTEM_DIR): it is a cache
 * kept across runs on purpose.
 *
 *   npm test                      all tests
 *   npm test -- --grep populate   mocha options pass through
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const root = path.resolve(__dirname, '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';

async function postgresReachable() {
  const client = new Client({
    host: process.env.TESSERA_TEST_PG_HOST || '127.0.0.1',
    port: Number(process.env.TESSERA_TEST_PG_PORT || 5432),
    database: process.env.TESSERA_TEST_PG_DATABASE || 'test',
    user: process.env.TESSERA_TEST_PG_USER || 'postgres',
    password: process.env.TESSERA_TEST_PG_PASSWORD || '',
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    console.error(`PostgreSQL not reachable: ${error.message}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** MySQL/MariaDB with the test user (see README, Tests). */
async function mysqlReachable() {
  let client;
  try {
    const mysql = require('mysql2/promise');
    client = await mysql.createConnection({
      host: process.env.TESSERA_TEST_MYSQL_HOST || '127.0.0.1',
      port: Number(process.env.TESSERA_TEST_MYSQL_PORT || 3306),
      user: process.env.TESSERA_TEST_MYSQL_USER || 'tessera',
      password: process.env.TESSERA_TEST_MYSQL_PASSWORD || 'tessera',
      connectTimeout: 3000,
    });
    await client.query('select 1');
    return true;
  } catch (error) {
    console.error(`MySQL/MariaDB not reachable: ${error.message}`);
    return false;
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/** `tsc --noEmit` over the tests; resolves to true when they type-check (errors are printed). */
function typeCheckTests() {
  return new Promise((resolve) => {
    const tsc = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.test.json'], { cwd: root, stdio: 'inherit' });
    tsc.on('close', (code) => resolve(code === 0));
  });
}

function jobs() {
  const asked = Number(process.env.TESSERA_TEST_JOBS);
  if (Number.isInteger(asked) && asked > 0) return asked;
  // Two more workers than cores: a good part of the suite waits on child processes, browsers, installs and database
  // servers rather than computing. On 2 cores, 3 workers kept the cores about two-thirds busy (19.8 min for the whole
  // run, 2026-11-30); 4 workers ran it in 14.4 min.
  return Math.max(2, os.availableParallelism() + 2);
}

/** Caches kept between runs, in the real temporary folder (the run's own TMPDIR is removed at its end): the ecosystem install, the admin panel's build. */
const ecosystemDir = process.env.TESSERA_ECOSYSTEM_DIR || path.join(os.tmpdir(), 'tessera-ecosystem');
const panelCacheDir = process.env.TESSERA_ADMIN_PANEL_CACHE || path.join(os.tmpdir(), 'tessera-admin-panel-cache');

async function main() {
  const prefetch = prefetchEcosystem();
  process.on('exit', () => prefetch?.kill());
  const [typed, postgres] = await Promise.all([
    typeCheckTests(),
    process.env.TESSERA_TEST_SKIP_POSTGRES === '1' ? false : postgresReachable(),
  ]);
  if (!typed) {
    console.error('The test files do not type-check (tsc -p tsconfig.test.json).');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  if (!postgres && ci) {
    console.error('CI=true but PostgreSQL is not reachable: the Postgres suite must run in CI.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  // MySQL/MariaDB runs when reachable, as PostgreSQL does; under CI=true (or TESSERA_TEST_MYSQL=1) it is required.
  const mysql = process.env.TESSERA_TEST_SKIP_MYSQL === '1' ? false : await mysqlReachable();
  if (!mysql && (ci || process.env.TESSERA_TEST_MYSQL === '1')) {
    console.error('MySQL/MariaDB is not reachable (user tessera@127.0.0.1:3306, see README Tests) but is required here.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  console.log(`databases: sqlite${postgres ? ', postgres' : ' (postgres not reachable: skipped)'}${mysql ? ', mysql' : ' (mysql not reachable: skipped)'}`);
  const args = [
    require.resolve('mocha/bin/mocha.js'),
    '--require', 'sucrase/register/ts',
    '--require', path.join(__dirname, 'mocha-isolation.js'),
    '--reporter', path.join(__dirname, 'mocha-reporter.js'),
    // Only a hang's bound: no test waits on a clock of its own (each waits for its ready line, answer or exit), so
    // a busy machine makes a run slower, not red; a hang still ends here.
    '--timeout', '120000',
    '--exit',
    '--parallel',
    '--jobs', String(jobs()),
    // The real apps (an npm pack and install, then image processing for each database) first, the ecosystem
    // plugins last: their npm install runs from the start (prefetchEcosystem), beside everything else.
    'scripts/ecosystem/test/apps/*.test.ts',
    'scripts/!(ecosystem)/test/**/*.test.ts',
    'packages/*/test/**/*.test.ts',
    'plugins/*/test/**/*.test.ts',
    'apps/*/test/**/*.test.ts',
    'scripts/ecosystem/test/*.test.ts',
    ...process.argv.slice(2),
  ];
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-test-run-'));
  // mkdtemp makes it 0700: the fault drills run a PostgreSQL server as the postgres user in a folder inside it.
  fs.chmodSync(runDir, 0o711);
  const statsFile = `${runDir}.stats.json`;
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    // SEED=false: suites booting apps/example expect the empty database they asked for; the seed tests turn it on.
    env: {
      ...process.env,
      TESSERA_TEST_POSTGRES: postgres ? '1' : '0',
      TESSERA_TEST_MYSQL: mysql ? '1' : '0',
      TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL || 'silent',
      SEED: process.env.SEED || 'false',
      TMPDIR: runDir,
      TESSERA_TEST_RUN: runDir,
      TESSERA_TEST_STATS: statsFile,
      TESSERA_ECOSYSTEM_DIR: ecosystemDir,
      TESSERA_ADMIN_PANEL_CACHE: panelCacheDir,
    },
  });
  const leaks = leftBehind(runDir);
  fs.rmSync(runDir, { recursive: true, force: true });
  const stats = readStats(statsFile);
  fs.rmSync(statsFile, { force: true });
  for (const leak of leaks) console.log(`left behind by the tests: ${leak}`);
  const failed = stats.failures + (leaks.length > 0 ? 1 : 0) + (stats.complete ? 0 : 1);
  if (!stats.complete) console.log('mocha ended without its totals (it crashed or was killed)');
  console.log(`${stats.passes} passed, ${failed} failed${stats.pending > 0 ? `, ${stats.pending} skipped` : ''}`);
  process.exit(failed > 0 || result.status !== 0 ? 1 : 0);
}

/** The reporter's totals (mocha-reporter.js writes them when TESSERA_TEST_STATS names a file). */
function readStats(file) {
  try {
    const { passes, failures, pending } = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { passes, failures, pending, complete: true };
  } catch {
    return { passes: 0, failures: 0, pending: 0, complete: false };
  }
}

/**
 * What the run left: processes whose environment carries this run's marker (killed, whole group), and entries of
 * the run's temporary folder. Linux /proc; elsewhere only the folder is checked.
 */
function leftBehind(runDir) {
  const leaks = [];
  const marker = Buffer.from(`TESSERA_TEST_RUN=${runDir}\0`);
  let pids = [];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    // No /proc.
  }
  for (const pid of pids) {
    if (pid === process.pid) continue;
    let environ;
    let command;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`);
      command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // ended meanwhile, or not ours to read
    }
    if (!environ.includes(marker)) continue;
    leaks.push(`process ${pid}: ${command}`);
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Not a group leader, or gone.
      }
    }
  }
  for (const name of fs.readdirSync(runDir)) leaks.push(`temporary ${name} (made in the run's TMPDIR, ${runDir})`);
  return leaks;
}

/**
 * The ecosystem suite's npm install (scripts/ecosystem/prefetch.ts), started with the run when the whole suite runs:
 * on a machine with a cold npm cache it takes minutes of mostly waiting on the network, which the other test files
 * fill. The suite waits for it (a lock beside the install folder) instead of installing twice.
 */
function prefetchEcosystem() {
  if (process.argv.length > 2 || process.env.TESSERA_ECOSYSTEM_SKIP === '1') return undefined;
  return spawn(process.execPath, ['--require', 'sucrase/register/ts', path.join(__dirname, 'ecosystem/prefetch.ts')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'ignore'],
    env: { ...process.env, TESSERA_ECOSYSTEM_DIR: ecosystemDir },
  });
}

main();

/**
 * The fourth security review's webhook backlog, by hand (issue 36, finding 1): API latency idle and with a dead
 * receiver's backlog (5 entries x 10,000 waiting deliveries, 100 failed each, inserted with SQL), on SQLite, in
 * one process serving the API and dispatching (as `tessera start`). autocannon runs in its own process at a fixed
 * 100 requests/s, so a stalled event loop shows in its latencies; the app's event-loop delay is printed too.
 *
 *   SEED=true TESSERA_LOG_LEVEL=silent node scripts/bench/webhook-backlog.js <repo root> <new|old>
 *
 * `old` writes the backlog in the outbox layout of 73e41da and before (run it with that checkout's root), `new`
 * in the current one. Ratios are backlog / idle, measured the same minute.
 */
const root = process.argv[2];
const layout = process.argv[3];
const { startApp, EXAMPLE_APP } = require(`${root}/packages/testing/dist/src/index.js`);

const ENTRIES = 5, PENDING = 10000, FAILED = 100;
const { monitorEventLoopDelay } = require('node:perf_hooks');
const loop = monitorEventLoopDelay({ resolution: 10 });
// autocannon in its own process: one in this process would stall with the app's event loop and not see the stall.
const { spawn } = require('node:child_process');
const run = (url, token) =>
  new Promise((resolve, reject) => {
    const child = spawn(`${root}/node_modules/.bin/autocannon`, ['-c', '10', '-R', '100', '-d', '20', '-j', '-H', `authorization=Bearer ${token}`, `${url}/api/articles`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`))));
  });

(async () => {
  const app = await startApp({
    dialect: 'sqlite',
    from: EXAMPLE_APP,
    config: { server: { webhooks: { declared: [{ name: 'dead', url: 'http://127.0.0.1:9/hook', events: ['entry.update'] }] } } },
  });
  const token = await app.fullAccessToken();
  loop.enable(); loop.reset();
  const idle = await run(app.url, token);
  const idleLoop = `event-loop delay max ${Math.round(loop.max / 1e6)} ms, p99 ${Math.round(loop.percentile(99) / 1e6)} ms`;
  const { sql } = app.app.db;
  const now = Date.now();
  const numbers = `(WITH RECURSIVE n(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM n WHERE v < ${PENDING - 1}) SELECT v AS n FROM n)`;
  for (let entry = 1; entry <= ENTRIES; entry++) {
    const cols = 'event_id, webhook_key, webhook_name, event, entry_key, payload, status, attempts, next_attempt_at, created_at' + (layout === 'new' ? ', undelivered' : '');
    const failed = `'e', 'config:dead', 'dead', 'entry.update', 'api::article.article:${entry}', '{}', 'failed', 10, ${now - 3600000}, ${now - 3600000}` + (layout === 'new' ? ', NULL' : '');
    await sql.raw(`INSERT INTO tessera_webhook_deliveries (${cols}) SELECT ${failed} FROM ${numbers} WHERE n < ${FAILED}`);
    const status = layout === 'new' ? `CASE WHEN n = 0 THEN 'pending' ELSE 'queued' END` : `'pending'`;
    // The head is in its backoff (due in an hour); every other row was due when written.
    const pending = `'e', 'config:dead', 'dead', 'entry.update', 'api::article.article:${entry}', '{}', ${status}, 0, CASE WHEN n = 0 THEN ${now + 3600000} ELSE ${now - 3600000} END, ${now - 3600000}` + (layout === 'new' ? ', 1' : '');
    await sql.raw(`INSERT INTO tessera_webhook_deliveries (${cols}) SELECT ${pending} FROM ${numbers}`);
  }
  // Let a few polls run with the backlog, then measure.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  loop.reset();
  const backlog = await run(app.url, token);
  const backlogLoop = `event-loop delay max ${Math.round(loop.max / 1e6)} ms, p99 ${Math.round(loop.percentile(99) / 1e6)} ms`;
  const show = (r) => `p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p97.5 ${r.latency.p97_5} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, ${Math.round(r.requests.average)} req/s`;
  console.log(`${layout}: idle    ${show(idle)}; ${idleLoop}`);
  console.log(`${layout}: backlog ${show(backlog)}; ${backlogLoop}`);
  console.log(`${layout}: ratio p50 ${(backlog.latency.p50 / Math.max(idle.latency.p50, 0.01)).toFixed(2)}, p90 ${(backlog.latency.p90 / Math.max(idle.latency.p90, 0.01)).toFixed(2)}, p97.5 ${(backlog.latency.p97_5 / Math.max(idle.latency.p97_5, 0.01)).toFixed(2)}, p99 ${(backlog.latency.p99 / Math.max(idle.latency.p99, 0.01)).toFixed(2)}`);
  await app.stop();
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

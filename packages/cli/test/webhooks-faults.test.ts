import { expect } from 'chai';
import Sqlite from 'better-sqlite3';
import { eachDatabase, WebhookReceiver, withMysql, withPostgres, type ReceivedRequest } from '@tessera/testing';
import { CliProcess, count, freePort, request, runCli, sleep, tempApp, waitForHttp, type TempApp } from './helpers';

/**
 * Webhook delivery under faults, against the real CLI as a process: the
 * receiver down while writes commit, the server killed with SIGKILL, both
 * restarted — and three worker processes on one database.
 */

const SALT = { API_TOKEN_SALT: 'webhooks-faults-salt' };

/** The example app's server config, plus one webhook declared in config and millisecond delivery timings. */
function serverConfig(receiverUrl: string, delivery: Record<string, number>): string {
  return `export default ({ env }) => ({
    host: env('HOST', '0.0.0.0'),
    port: env.int('PORT', 1337),
    webhooks: {
      declared: [{ name: 'receiver', url: ${JSON.stringify(receiverUrl)}, events: ['entry.create', 'entry.update'] }],
      delivery: ${JSON.stringify(delivery)},
    },
  });`;
}

async function fullAccessToken(app: TempApp): Promise<string> {
  const result = await runCli(['api-token', 'create', '--name', `t${Date.now()}`, '--type', 'full-access'], { cwd: app.dir, env: { ...app.env, ...SALT } });
  expect(result.code, result.stderr).to.equal(0);
  return result.stdout.trim().split('\n').pop()!.trim();
}

function startServer(app: TempApp, args: string[] = [], env: NodeJS.ProcessEnv = {}): CliProcess {
  return new CliProcess(['start', ...args], { cwd: app.dir, env: { ...app.env, ...SALT, ...env } });
}

/** `entries` articles written concurrently, each created then updated `updates` times in order; what each webhook history must be. */
async function writeHistories(app: TempApp, token: string, entries: number, updates: number, prefix: string): Promise<Map<number, string[]>> {
  const expected = new Map<number, string[]>();
  await Promise.all(
    Array.from({ length: entries }, async (_, n) => {
      const created = await request(`${app.url}/api/articles`, 'POST', { data: { title: `${prefix}${n} v0` } }, token);
      expect(created.status).to.equal(200);
      const id = created.body.data.id as number;
      const history = [`entry.create ${prefix}${n} v0`];
      for (let version = 1; version <= updates; version++) {
        expect((await request(`${app.url}/api/articles/${id}`, 'PUT', { data: { title: `${prefix}${n} v${version}` } }, token)).status).to.equal(200);
        history.push(`entry.update ${prefix}${n} v${version}`);
      }
      expected.set(id, history);
    }),
  );
  return new Map([...expected.entries()].sort(([a], [b]) => a - b));
}

/** Each event once by id, and per article: its create, then its updates in the order they were made. */
function checkDeliveries(requests: ReceivedRequest[], expected: Map<number, string[]>): void {
  const ids = requests.map((request) => request.headers['x-tessera-event-id']);
  expect(new Set(ids).size, 'no event twice').to.equal(ids.length);
  const seen = new Map<number, string[]>();
  for (const request of requests) {
    const { id, title } = request.json.entry;
    seen.set(id, [...(seen.get(id) ?? []), `${request.json.event} ${title}`]);
  }
  expect(new Map([...seen.entries()].sort(([a], [b]) => a - b))).to.deep.equal(expected);
}

eachDatabase('webhooks: receiver down, kill -9, restart', (dialect) => {
  let app: TempApp;
  let server: CliProcess | undefined;
  let receiver: WebhookReceiver | undefined;
  before(async () => {
    app = await tempApp(dialect);
  });
  after(async () => {
    if (server?.running) await server.stop('SIGKILL');
    await receiver?.stop();
    await app.remove();
  });

  it('delivers all 50 events once each, in per-entry order, after the server is killed with the receiver down', async function () {
    const port = await freePort();
    app.write('config/server.ts', serverConfig(`http://127.0.0.1:${port}/hook`, { backoffMs: 50, maxBackoffMs: 400, pollIntervalMs: 100, maxAttempts: 1000, timeoutMs: 1000, leaseMs: 2500 }));
    const token = await fullAccessToken(app);
    server = startServer(app);
    await waitForHttp(`${app.url}/_health`, 204, server);

    // 10 articles, each created then updated 4 times (its own writes in order; the articles concurrently): 50 events.
    const expected = await writeHistories(app, token, 10, 4, 'a');
    // The last write was acknowledged: kill at once, while every delivery is still pending.
    await server.stop('SIGKILL');
    expect(server.output).to.not.match(/→ 200/);

    receiver = await WebhookReceiver.start(port);
    server = startServer(app);
    await waitForHttp(`${app.url}/_health`, 204, server);
    const requests = await receiver.waitFor(50);
    await sleep(500);
    expect(receiver.requests).to.have.length(50);
    checkDeliveries(requests, expected);
    const counts = (await (await fetch(`${app.url}/_health/webhooks`, { headers: { authorization: `Bearer ${token}` } })).json()) as { deliveries: Record<string, number> };
    expect(counts.deliveries).to.include({ pending: 0, sending: 0, failed: 0, delivered: 50 });
  });
});

/** How many delivered rows each claiming process (`<pid>:<run>`) settled. */
async function deliveredBy(app: TempApp): Promise<Array<{ locked_by: string; n: number }>> {
  const sql = `SELECT locked_by, count(*) AS n FROM tessera_webhook_deliveries WHERE status = 'delivered' GROUP BY locked_by`;
  if (app.database.dialect === 'sqlite') {
    const db = new Sqlite(app.database.sqliteFile!, { readonly: true });
    try {
      return db.prepare(sql).all() as Array<{ locked_by: string; n: number }>;
    } finally {
      db.close();
    }
  }
  if (app.database.dialect === 'mysql') {
    return withMysql(async (client) => {
      const [rows] = await client.query(sql.replace('tessera_webhook_deliveries', `\`${app.database.schema}\`.tessera_webhook_deliveries`));
      return (rows as Array<{ locked_by: string; n: unknown }>).map((row) => ({ locked_by: row.locked_by, n: Number(row.n) }));
    });
  }
  return withPostgres(async (client) => {
    await client.query(`SET search_path TO "${app.database.schema}"`);
    return (await client.query(sql)).rows.map((row: { locked_by: string; n: string }) => ({ locked_by: row.locked_by, n: Number(row.n) }));
  });
}

eachDatabase('webhooks: 3 worker processes on one database', (dialect) => {
  let app: TempApp;
  let server: CliProcess | undefined;
  let receiver: WebhookReceiver;
  before(async () => {
    app = await tempApp(dialect);
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    if (server?.running) await server.stop('SIGKILL');
    await receiver.stop();
    await app.remove();
  });

  it('delivers each event from exactly one process (FOR UPDATE SKIP LOCKED; SQLite: claims under its write lock), several dispatching', async function () {
    // A slow receiver and fast polls: the three dispatchers compete for the same rows all the time. The attempt's
    // timeout stays short: it sets the lease (2 × timeout + 5 s), and a delivery whose settle failed waits out the
    // lease before it is sent again; at 60 s that wait outran the test's bound on MariaDB (a fresh-clone run).
    receiver.delayMs = 20;
    app.write('config/server.ts', serverConfig(receiver.url, { backoffMs: 50, pollIntervalMs: 20, concurrency: 3, timeoutMs: 5000 }));
    const token = await fullAccessToken(app);
    server = startServer(app, ['--workers', '3'], { TESSERA_LOG_LEVEL: 'http' });
    await server.waitForOutput((output) => count(output, 'ready at') === 3);

    const expected = await writeHistories(app, token, 20, 2, 'w');
    const requests = await receiver.waitFor(60);
    await sleep(500);
    // Two processes holding one claim would send the same attempt of a delivery twice.
    const attempts = receiver.requests.map((request) => `${String(request.headers['x-tessera-event-id'])} #${String(request.headers['x-tessera-attempt'])}`);
    expect(attempts.filter((attempt, index) => attempts.indexOf(attempt) !== index), 'an attempt sent twice').to.deep.equal([]);
    const notDelivered = server.output.split('\n').filter((line) => /webhook.*→ (?!200)|not settled/.test(line));
    expect(receiver.requests, notDelivered.join('\n')).to.have.length(60);
    checkDeliveries(requests, expected);

    // Every attempt is logged by the process that made it: 60 successful attempts in all, none repeated.
    expect(count(server.output, '→ 200')).to.equal(60);
    const owners = await deliveredBy(app);
    expect(owners.reduce((sum, row) => sum + row.n, 0)).to.equal(60);
    const pids = new Set(owners.map((row) => row.locked_by.split(':')[0]));
    expect(pids.size, JSON.stringify(owners)).to.be.at.least(2);
  });
});

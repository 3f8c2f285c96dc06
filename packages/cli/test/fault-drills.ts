/**
 * The fault drills both server databases run (faults.test.ts on PostgreSQL,
 * mysql-faults.test.ts on MySQL/MariaDB): N workers booting together on one
 * empty database, and the database going away under load and coming back.
 */
import { expect } from 'chai';
import { CliProcess, request, runCli, sleep, waitForHttp, type TempApp } from './helpers';

export const SALT = { API_TOKEN_SALT: 'faults-test-salt' };

export async function fullAccessToken(app: TempApp): Promise<string> {
  const result = await runCli(['api-token', 'create', '--name', `t${Date.now()}`, '--type', 'full-access'], { cwd: app.dir, env: { ...app.env, ...SALT } });
  expect(result.code, result.stderr).to.equal(0);
  return result.stdout.trim().split('\n').pop()!.trim();
}

export function startServer(app: TempApp, args: string[] = []): CliProcess {
  return new CliProcess(['start', ...args], { cwd: app.dir, env: { ...app.env, ...SALT } });
}

/** 3 workers boot at once: no error; concurrent creates all kept; every worker's count right within a second. */
export async function workersAgree(app: TempApp): Promise<CliProcess> {
  const server = startServer(app, ['--workers', '3']);
  await server.waitForOutput((output) => output.split('ready at').length - 1 === 3);
  expect(server.stderr).to.equal('');
  const token = await fullAccessToken(app);
  // Concurrent creates land on different workers; every one is kept, and each answer's count is right.
  const created = await Promise.all(Array.from({ length: 30 }, (_, n) => request(`${app.url}/api/tags`, 'POST', { data: { name: `tag ${n}` } }, token)));
  expect(created.map((response) => response.status)).to.deep.equal(Array(30).fill(200));
  for (let round = 0; round < 5; round++) {
    await request(`${app.url}/api/tags`, 'POST', { data: { name: `after ${round}` } }, token);
    const expected = 31 + round;
    let total = 0;
    // Through any worker: the writer's own count at once, the others after the notification (polled until then:
    // the test's timeout bounds the wait, so a busy machine is slower, not red).
    while (total !== expected) total = (await request(`${app.url}/api/tags`, 'GET', undefined, token)).body.meta.pagination.total;
    expect(total).to.equal(expected);
  }
  expect(await server.stop('SIGTERM')).to.equal(0);
  return server;
}

/**
 * Under a stream of reads and writes the database stops, then starts: 503s (never a hang past the acquire
 * timeout, never another error) while it is down, recovery without a restart, and no acknowledged write lost.
 */
export async function outageUnderLoad(app: TempApp, database: { stop(): unknown; start(): unknown }): Promise<CliProcess> {
  const token = await fullAccessToken(app);
  const server = startServer(app);
  await waitForHttp(`${app.url}/_health`, 204, server);
  const acknowledged: number[] = [];
  const statuses = new Map<number, number>();
  let running = true;
  let n = 0;
  const load = async () => {
    while (running) {
      const write = n % 2 === 0;
      const response = write
        ? await request(`${app.url}/api/articles`, 'POST', { data: { title: `outage ${n++}` } }, token)
        : await request(`${app.url}/api/articles?pagination[pageSize]=1`, 'GET', undefined, (n++, token));
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (write && response.status === 200) acknowledged.push(response.body.data.id);
      if (response.status === 503) expect(response.body.error.name).to.equal('ServiceUnavailableError');
      await sleep(10);
    }
  };
  const workers = [load(), load(), load()];
  await sleep(500);
  await database.stop();
  await sleep(1500);
  // A refused connection means the server is gone: say how it ended and what it printed, so a failure names its cause.
  const health = await request(`${app.url}/_health`, 'GET').catch((error: Error) => {
    throw new Error(`${error.message}; server running: ${server.running}; its output ends:\n${server.output.slice(-3000)}`);
  });
  expect(health.status).to.equal(503);
  await database.start();
  await waitForHttp(`${app.url}/_health`, 204, server);
  await sleep(500);
  running = false;
  await Promise.all(workers);
  expect([...statuses.keys()].sort()).to.deep.equal([200, 503]);
  // No request hung: every load loop above ended with an answer (a hang would hold Promise.all until the test's
  // timeout). How long each took under the outage is a speed, which a busy machine changes; it is no verdict here.
  expect(server.running).to.equal(true);
  const stored = new Set<number>();
  for (let page = 1; ; page++) {
    const list = await request(`${app.url}/api/articles?fields[0]=id&pagination[pageSize]=100&pagination[page]=${page}`, 'GET', undefined, token);
    for (const entry of list.body.data) stored.add(entry.id);
    if (page >= list.body.meta.pagination.pageCount) break;
  }
  expect(acknowledged.filter((id) => !stored.has(id))).to.deep.equal([]);
  return server;
}

import { expect } from 'chai';
import http from 'node:http';
import { DIALECTS, withMysql, withPostgres, type TestDialect } from '@tessera/testing';
import { CliProcess, count, freePort, runCli, tempApp, waitForHttp, type TempApp } from './helpers';

/**
 * A request sent after another request's write was answered sees that write,
 * whichever process serves each (issue 36, finding 4). Identical reads in
 * flight share one query and list totals are cached per process; both must
 * hear of other processes' writes before reusing anything (heard-barrier.ts).
 * Readers loop the very list the writer reads, so the writer's read often
 * finds an identical one in flight; every request opens its own connection,
 * so `--workers 2` spreads them over both workers, and with two separate
 * processes the writer writes to one and reads from the other.
 */

interface Answer {
  status: number;
  body: any;
}

/** One request on a fresh connection (no keep-alive: each may reach another worker). */
function send(port: number, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (payload) headers['content-type'] = 'application/json';
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(20000, () => request.destroy(new Error('timeout')));
    request.end(payload);
  });
}

/**
 * Anonymous (public role), so no request writes anything (an API token's lastUsedAt would), and sorted by name over
 * every row (30,000), so each read takes a while and a reader's read is nearly always in flight when the writer's
 * arrives: on 73e41da MariaDB missed the PUT 8/30 times with --workers 2 (one version behind each time) and missed
 * the create 9/30; with 3,000 rows the PUT was never missed. The renamed tag stays first.
 */
const LIST = '/api/tags?sort=name:asc&pagination[pageSize]=100&filters[name][$containsi]=shared';
const ROWS = 30000;
const ROUNDS = 30;

/** `count` tags straight into the table (the servers have made it), in a few multi-row statements. */
async function insertTags(app: TempApp, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => `shared x${String(index + 1).padStart(5, '0')}`);
  for (let start = 0; start < rows.length; start += 1000) {
    const names = rows.slice(start, start + 1000);
    if (app.database.dialect === 'mysql') {
      await withMysql((client) => client.query(`INSERT INTO \`${app.database.schema}\`.tags (name, created_at, updated_at) VALUES ${names.map(() => '(?, NOW(), NOW())').join(', ')}`, names));
    } else {
      await withPostgres((client) => client.query(`INSERT INTO "${app.database.schema}".tags (name, created_at, updated_at) SELECT unnest($1::text[]), now(), now()`, [names]));
    }
  }
}
const READERS = 8;

interface Setup {
  /** Where the writer writes, and where it then reads. */
  writeTo: number;
  readFrom: number;
  /** Where the readers read (each port in turn). */
  readers: number[];
}

function crossProcessCase(dialect: TestDialect, title: string, start: (app: TempApp) => Promise<{ servers: CliProcess[]; setup: Setup }>): void {
  describe(`${title} [${dialect}]`, () => {
    let app: TempApp;
    let servers: CliProcess[] = [];
    let setup: Setup;
    let token: string;
    before(async function () {
      this.timeout(120000);
      app = await tempApp(dialect);
      ({ servers, setup } = await start(app));
      const created = await runCli(['api-token', 'create', '--name', 'writer', '--type', 'full-access'], { cwd: app.dir, env: app.env });
      expect(created.code, created.stderr).to.equal(0);
      token = created.stdout.trim();
      expect((await send(setup.writeTo, 'POST', '/api/tags', token, { data: { name: 'shared 0000' } })).status).to.equal(200);
      await insertTags(app, ROWS);
    });
    after(async function () {
      for (const server of servers) if (server.running) await server.stop('SIGTERM').catch(() => server.stop('SIGKILL'));
      await app?.remove();
    });

    /** Runs `work` while readers loop the writer's list on every port; fails if a reader got anything but a 200. */
    async function underReaders<T>(work: () => Promise<T>): Promise<T> {
      let stop = false;
      const failures: Answer[] = [];
      const readers = Array.from({ length: READERS }, async (_, index) => {
        const port = setup.readers[index % setup.readers.length];
        while (!stop) {
          const answer = await send(port, 'GET', LIST);
          if (answer.status !== 200) failures.push(answer);
        }
      });
      try {
        return await work();
      } finally {
        stop = true;
        await Promise.all(readers);
        expect(failures).to.deep.equal([]);
      }
    }

    it('a list sent after a PUT was answered shows the PUT, every round', async function () {
      this.timeout(120000);
      const first = (await send(setup.readFrom, 'GET', LIST)).body.data[0];
      const missed = await underReaders(async () => {
        const stale: string[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const name = `shared 0000 renamed ${round}`;
          expect((await send(setup.writeTo, 'PUT', `/api/tags/${first.id}`, token, { data: { name } })).status).to.equal(200);
          const listed = await send(setup.readFrom, 'GET', LIST);
          const seen = listed.body.data[0].attributes.name;
          if (seen !== name) stale.push(`round ${round}: ${seen}`);
        }
        return stale;
      });
      expect(missed).to.deep.equal([]);
    });

    it("a list total sent after a create was answered counts the create, every round", async function () {
      this.timeout(120000);
      let expected = (await send(setup.readFrom, 'GET', LIST)).body.meta.pagination.total as number;
      const missed = await underReaders(async () => {
        const stale: string[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          expect((await send(setup.writeTo, 'POST', '/api/tags', token, { data: { name: `shared created ${round}` } })).status).to.equal(200);
          expected++;
          const total = (await send(setup.readFrom, 'GET', LIST)).body.meta.pagination.total;
          if (total !== expected) stale.push(`round ${round}: ${total} of ${expected}`);
        }
        return stale;
      });
      expect(missed).to.deep.equal([]);
    });
  });
}

// SQLite has no shared reads, and hears every commit through PRAGMA data_version before it reuses a total.
for (const dialect of DIALECTS.filter((name) => name !== 'sqlite')) {
  crossProcessCase(dialect, 'cross-process reads: tessera start --workers 2', async (app) => {
    const server = new CliProcess(['start', '--workers', '2'], { cwd: app.dir, env: app.env });
    await server.waitForOutput((output) => count(output, 'ready at') === 2);
    await waitForHttp(`${app.url}/_health`, 204, server);
    return { servers: [server], setup: { writeTo: app.port, readFrom: app.port, readers: [app.port] } };
  });

  crossProcessCase(dialect, 'cross-process reads: two tessera start processes on one database', async (app) => {
    const first = new CliProcess(['start'], { cwd: app.dir, env: app.env });
    await waitForHttp(`${app.url}/_health`, 204, first);
    const otherPort = await freePort();
    const second = new CliProcess(['start'], { cwd: app.dir, env: { ...app.env, PORT: String(otherPort) } });
    await waitForHttp(`http://127.0.0.1:${otherPort}/_health`, 204, second);
    return { servers: [first, second], setup: { writeTo: app.port, readFrom: otherPort, readers: [app.port, otherPort] } };
  });
}

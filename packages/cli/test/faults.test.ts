import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eachDatabase, DIALECTS } from '@tessera/testing';
import { CliProcess, freePort, request, sleep, tempApp, waitForHttp, type TempApp } from './helpers';
import { fullAccessToken, outageUnderLoad, startServer, workersAgree } from './fault-drills';

/**
 * Faults, run against the real CLI as a process: kill -9 under a stream of
 * writes, SIGTERM with requests in flight, several worker processes on one
 * database, and (PostgreSQL) the database going away and coming back.
 */

eachDatabase('faults: kill -9 and SIGTERM', (dialect) => {
  let app: TempApp;
  let server: CliProcess | undefined;
  beforeEach(async () => {
    app = await tempApp(dialect);
  });
  afterEach(async () => {
    if (server?.running) await server.stop('SIGKILL');
    await app.remove();
  });

  it('keeps every write it acknowledged when killed with SIGKILL mid-stream', async function () {
    const token = await fullAccessToken(app);
    server = startServer(app);
    await waitForHttp(`${app.url}/_health`, 204, server);
    const acknowledged: number[] = [];
    let n = 0;
    const writer = async () => {
      for (;;) {
        let response;
        try {
          response = await request(`${app.url}/api/articles`, 'POST', { data: { title: `durable ${n++}` } }, token);
        } catch {
          return; // the server is gone
        }
        if (response.status === 200) acknowledged.push(response.body.data.id);
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    while (acknowledged.length < 60) await sleep(5);
    await server.stop('SIGKILL');
    await Promise.all(writers);

    server = startServer(app);
    await waitForHttp(`${app.url}/_health`, 204, server);
    const stored = new Set<number>();
    for (let page = 1; ; page++) {
      const list = await request(`${app.url}/api/articles?publicationState=preview&fields[0]=id&pagination[pageSize]=100&pagination[page]=${page}`, 'GET', undefined, token);
      for (const entry of list.body.data) stored.add(entry.id);
      if (page >= list.body.meta.pagination.pageCount) break;
    }
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost, `${acknowledged.length} acknowledged`).to.deep.equal([]);
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async function () {
    app.write(
      'src/index.ts',
      `export default {
        register({ strapi }) {
          strapi.routes.add('global::slow', { type: 'raw', routes: [{ method: 'GET', path: '/slow', config: { auth: false },
            handler: async (ctx) => { await new Promise((resolve) => setTimeout(resolve, 700)); ctx.body = { done: true }; } }] });
        },
      };\n`,
    );
    server = startServer(app);
    await waitForHttp(`${app.url}/_health`, 204, server);
    const inFlight = [request(`${app.url}/slow`, 'GET'), request(`${app.url}/slow`, 'GET')];
    await sleep(150);
    const exited = server.stop('SIGTERM');
    const answers = await Promise.all(inFlight);
    expect(answers.map((answer) => [answer.status, answer.body])).to.deep.equal([
      [200, { done: true }],
      [200, { done: true }],
    ]);
    expect(await exited).to.equal(0);
  });
});

if (DIALECTS.includes('postgres')) {
  describe('faults: several worker processes on one PostgreSQL', () => {
    let app: TempApp;
    let server: CliProcess | undefined;
    before(async () => {
      app = await tempApp('postgres');
    });
    after(async () => {
      if (server?.running) await server.stop('SIGKILL');
      await app.remove();
    });

    it('boots 3 workers on an empty schema at once: one schema, no error; writes and counts agree across them', async function () {
      server = await workersAgree(app);
    });
  });

  describe('faults: PostgreSQL stops and starts under load', () => {
    const bin = fs.readdirSync('/usr/lib/postgresql').map((version) => path.join('/usr/lib/postgresql', version, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'pg_ctl')));
    let cluster: string;
    let port: number;
    let app: TempApp;
    let server: CliProcess | undefined;
    const asPostgres = (command: string, args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin!, command), ...args], { stdio: 'pipe' });
    const pgCtl = (action: string) => asPostgres('pg_ctl', ['-D', cluster, '-w', '-t', '30', '-o', `-p ${port} -k ${cluster} -c listen_addresses=127.0.0.1`, '-l', path.join(cluster, 'log'), action === 'stop' ? 'stop' : 'start', ...(action === 'stop' ? ['-m', 'fast'] : [])]);

    before(async function () {
      if (!bin) throw new Error('PostgreSQL server binaries are needed for the outage test');
      cluster = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pg-'));
      fs.chmodSync(cluster, 0o777);
      fs.chownSync(cluster, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
      asPostgres('initdb', ['-D', cluster, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      port = await freePort();
      pgCtl('start');
      app = await tempApp('sqlite');
      app.env = { ...app.env, DATABASE_CLIENT: 'postgres', DATABASE_HOST: '127.0.0.1', DATABASE_PORT: String(port), DATABASE_NAME: 'postgres', DATABASE_USERNAME: 'postgres', DATABASE_SCHEMA: 'public' };
    });
    after(async () => {
      if (server?.running) await server.stop('SIGKILL');
      try {
        pgCtl('stop');
      } catch {
        // already stopped
      }
      fs.rmSync(cluster, { recursive: true, force: true });
      await app?.remove();
    });

    it('answers 503 quickly while the database is down, recovers by itself, and loses no acknowledged write', async function () {
      this.timeout(120000);
      server = await outageUnderLoad(app, { stop: () => pgCtl('stop'), start: () => pgCtl('start') });
    });
  });
}

import { ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIALECTS, killGroup, spawnGroup } from '@tessera/testing';
import { CliProcess, freePort, sleep, tempApp, type TempApp } from './helpers';
import { outageUnderLoad, workersAgree } from './fault-drills';

/**
 * MySQL/MariaDB faults, against the real CLI as processes: several workers on
 * one database (their caches kept coherent by the polled write versions), and
 * a MariaDB server of the test's own going away under load and coming back.
 */

if (DIALECTS.includes('mysql')) {
  describe('faults: several worker processes on one MySQL/MariaDB', () => {
    let app: TempApp;
    let server: CliProcess | undefined;
    before(async () => {
      app = await tempApp('mysql');
    });
    after(async () => {
      if (server?.running) await server.stop('SIGKILL');
      await app.remove();
    });

    it('boots 3 workers on an empty database at once; writes and counts agree across them within the poll delay', async function () {
      server = await workersAgree(app);
    });
  });

  describe('faults: MariaDB stops and starts under load', () => {
    let datadir: string;
    let port: number;
    let app: TempApp;
    let server: CliProcess | undefined;
    let mariadb: ChildProcess | undefined;

    const startMariadb = async () => {
      const socket = path.join(datadir, 'sock');
      mariadb = spawnGroup('mariadbd', ['--no-defaults', `--datadir=${datadir}`, `--port=${port}`, `--socket=${socket}`, '--bind-address=127.0.0.1', '--user=root', '--skip-grant-tables', '--skip-log-bin', '--innodb-buffer-pool-size=16M'], { stdio: 'ignore' });
      // Waits for its answer, or its exit; the test's timeout bounds the rest.
      for (;;) {
        try {
          execFileSync('mariadb-admin', ['--no-defaults', `--socket=${socket}`, 'ping'], { stdio: 'pipe' });
          return;
        } catch {
          if (mariadb?.exitCode !== null) throw new Error('the test MariaDB exited before it answered');
          await sleep(100);
        }
      }
    };
    const stopMariadb = async () => {
      const server = mariadb;
      mariadb = undefined;
      if (!server || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      killGroup(server.pid);
    };

    before(async function () {
      datadir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-mariadb-'));
      execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${datadir}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'], { stdio: 'pipe' });
      port = await freePort();
      await startMariadb();
      execFileSync('mariadb', ['--no-defaults', `--socket=${path.join(datadir, 'sock')}`, '-e', 'CREATE DATABASE cms'], { stdio: 'pipe' });
      app = await tempApp('sqlite');
      app.env = { ...app.env, DATABASE_CLIENT: 'mysql', DATABASE_HOST: '127.0.0.1', DATABASE_PORT: String(port), DATABASE_NAME: 'cms', DATABASE_USERNAME: 'root', DATABASE_PASSWORD: '' };
    });
    after(async () => {
      if (server?.running) await server.stop('SIGKILL');
      await stopMariadb();
      fs.rmSync(datadir, { recursive: true, force: true });
      await app?.remove();
    });

    it('answers 503 quickly while the database is down, recovers by itself, and loses no acknowledged write', async function () {
      this.timeout(120000);
      server = await outageUnderLoad(app, { stop: stopMariadb, start: startMariadb });
    });
  });
}

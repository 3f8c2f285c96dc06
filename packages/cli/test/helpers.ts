/**
 * Runs the built `tessera` CLI as a real child process against a temporary
 * copy of apps/example, on a free port, with its own database.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, dropDatabase, EXAMPLE_APP, killGroup, MYSQL, POSTGRES, REPO_ROOT, spawnGroup, type DatabaseHandle, type TestDialect } from '@tessera/testing';

export { killGroup };

export const CLI = path.join(REPO_ROOT, 'packages/cli/bin/tessera.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface TempApp {
  dir: string;
  port: number;
  url: string;
  env: NodeJS.ProcessEnv;
  database: DatabaseHandle;
  /** Writes a file of the app (objects as JSON). */
  write(relative: string, content: string | object): void;
  remove(): Promise<void>;
}

export function tempDir(prefix = 'tessera-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A copy of apps/example (config + src) with its own port and database. */
export async function tempApp(dialect: TestDialect = 'sqlite', from: string = EXAMPLE_APP): Promise<TempApp> {
  const dir = tempDir();
  for (const part of ['config', 'src']) fs.cpSync(path.join(from, part), path.join(dir, part), { recursive: true });
  const database = await createDatabase(dialect, dir);
  const port = await freePort();
  // `start` runs in production, where the example app requires its own salt and users-permissions a JWT secret.
  const env = { ...cleanEnv(), PORT: String(port), API_TOKEN_SALT: 'cli-test-salt', JWT_SECRET: 'cli-test-jwt-secret-not-for-production', ...databaseEnv(database) };
  return {
    dir,
    port,
    url: `http://127.0.0.1:${port}`,
    env,
    database,
    write(relative, content) {
      const file = path.join(dir, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    },
    async remove() {
      await dropDatabase(database);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The runner's environment without anything that would choose another database or mode. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', TESSERA_LOG_LEVEL: 'info' };
  for (const key of Object.keys(env)) if (key.startsWith('DATABASE_') || key === 'NODE_ENV' || key === 'PORT') delete env[key];
  return env;
}

export function databaseEnv(database: DatabaseHandle): NodeJS.ProcessEnv {
  if (database.dialect === 'sqlite') return { DATABASE_FILENAME: database.sqliteFile };
  if (database.dialect === 'mysql') {
    return {
      DATABASE_CLIENT: 'mysql',
      DATABASE_HOST: MYSQL.host,
      DATABASE_PORT: String(MYSQL.port),
      DATABASE_NAME: database.schema,
      DATABASE_USERNAME: MYSQL.user,
      DATABASE_PASSWORD: MYSQL.password,
    };
  }
  return {
    DATABASE_CLIENT: 'postgres',
    DATABASE_HOST: POSTGRES.host,
    DATABASE_PORT: String(POSTGRES.port),
    DATABASE_NAME: POSTGRES.database,
    DATABASE_USERNAME: POSTGRES.user,
    DATABASE_PASSWORD: POSTGRES.password,
    DATABASE_SCHEMA: database.schema,
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a CLI command to completion. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const running = new CliProcess(args, options);
  return running.exited.then((code) => ({ code, stdout: running.stdout, stderr: running.stderr }));
}

/**
 * Runs any program to completion in its own process group, which is killed
 * when the program exits (whatever it left running below it).
 */
export function runProgram(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const child = spawnGroup(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      killGroup(child.pid);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A CLI command whose output is collected as it comes, in a process group of
 * its own (@tessera/testing's spawnGroup): `stop('SIGKILL')`, the cleanup of
 * any test, kills the whole group; a group left alive fails the test file.
 * No wait here has a clock of its own: each waits for its signal (output, an
 * answer, the exit) or for the process to end, and the test's timeout bounds
 * the rest, so a busy machine is slower, never red.
 */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  /** `options.cli`: the tessera bin to run (an installed app's own), else the checkout's. */
  constructor(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; cli?: string } = {}) {
    this.child = spawnGroup(process.execPath, [options.cli ?? CLI, ...args], { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  get output(): string {
    return this.stdout + this.stderr;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until the collected output satisfies `test`; fails at once if the CLI exits first. */
  async waitForOutput(test: (output: string) => boolean): Promise<void> {
    while (!test(this.output)) {
      if (!this.running) throw new Error(`the CLI exited (${this.child.exitCode}) before the expected output:\n${this.output}`);
      await sleep(50);
    }
  }

  /**
   * Sends `signal` to the CLI (SIGKILL: to its whole group) and resolves with the exit code once it has exited,
   * however long a busy machine takes (the test's timeout bounds it).
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (signal === 'SIGKILL') killGroup(this.child.pid);
    else if (this.running) this.child.kill(signal);
    return this.exited;
  }

  /** The whole group, killed: for cleanups that must leave nothing, whatever the test did. */
  kill(): void {
    killGroup(this.child.pid);
  }
}

export function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls a URL until it answers `status` (connection refused counts as not yet). With `server`, fails as soon as that
 * process has exited (a boot error), showing its output; otherwise the test's timeout bounds the wait.
 */
export async function waitForHttp(url: string, status = 200, server?: CliProcess): Promise<Response> {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status === status) return response;
    } catch {
      // Not listening yet.
    }
    if (server && !server.running) throw new Error(`the server exited before ${url} answered ${status}:\n${server.output}`);
    await sleep(100);
  }
}

/** True when nothing accepts connections on the port any more. */
export async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

/**
 * One request on a connection of its own (no keep-alive). The tests judge every answer, often while a server is
 * under load: a pooled socket the server has just closed for idling (its keepAliveTimeout) can still be picked by a
 * client whose event loop lags on a busy machine, and that request then fails with no answer ("fetch failed"), which
 * is the client's race, not the server's. A server that is gone still refuses the connection, and the error names the
 * method, the URL and the cause.
 */
export function request(url: string, method: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        } catch (error) {
          reject(error);
        }
      });
    });
    outgoing.on('error', (error) => reject(new Error(`${method} ${url}: ${error.message}`)));
    outgoing.end(payload);
  });
}

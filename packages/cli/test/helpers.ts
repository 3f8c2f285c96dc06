/**
 * Runs the built `tessera` CLI as a real child process against a temporary
 * copy of apps/example, on a free port, with its own database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, dropDatabase, EXAMPLE_APP, MYSQL, POSTGRES, REPO_ROOT, type DatabaseHandle, type TestDialect } from '@tessera/testing';

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

/** A long-running CLI command (start, develop) whose output is collected as it comes. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
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

  /** Waits until the collected output satisfies `test`. */
  async waitForOutput(test: (output: string) => boolean, timeoutMs = 15000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this.output)) {
      if (!this.running) throw new Error(`the CLI exited (${this.child.exitCode}) before the expected output:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for output; got:\n${this.output}`);
      await sleep(50);
    }
  }

  /** Sends a signal and resolves with the exit code; fails (after a SIGKILL) past the timeout. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 5000): Promise<number | null> {
    if (!this.running) return this.exited;
    this.child.kill(signal);
    const timer = sleep(timeoutMs).then(() => 'timeout' as const);
    const result = await Promise.race([this.exited, timer]);
    if (result === 'timeout') {
      this.child.kill('SIGKILL');
      throw new Error(`the CLI did not exit within ${timeoutMs} ms of ${signal}`);
    }
    return result;
  }
}

export function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls a URL until it answers `status` (connection refused counts as not yet). */
export async function waitForHttp(url: string, status = 200, timeoutMs = 15000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status === status) return response;
      last = `status ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer ${status} in ${timeoutMs} ms (last: ${last})`);
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

export async function request(url: string, method: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

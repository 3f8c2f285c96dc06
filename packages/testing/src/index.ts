/**
 * The test harness: boots a real Tessera app (real HTTP server on a free
 * port, real database) from a folder or from files written on the fly, on
 * SQLite (always), PostgreSQL and MySQL/MariaDB (when the runner found them:
 * each app gets a fresh schema or database, dropped afterwards).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { App, type AppOptions, type ConfigTree, type Plugin } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';

export type TestDialect = 'sqlite' | 'postgres' | 'mysql';

/** Databases the suites run on: Postgres and MySQL/MariaDB only when `scripts/test.js` reached (and chose) them. */
export const DIALECTS: TestDialect[] = [
  'sqlite' as const,
  ...(process.env.TESSERA_TEST_POSTGRES === '1' ? (['postgres'] as const) : []),
  ...(process.env.TESSERA_TEST_MYSQL === '1' ? (['mysql'] as const) : []),
];

/** MySQL/MariaDB for the tests: each app gets a fresh database (MySQL's schema), dropped afterwards. */
export const MYSQL = {
  host: process.env.TESSERA_TEST_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.TESSERA_TEST_MYSQL_PORT ?? 3306),
  user: process.env.TESSERA_TEST_MYSQL_USER ?? 'tessera',
  password: process.env.TESSERA_TEST_MYSQL_PASSWORD ?? 'tessera',
};

export const POSTGRES = {
  host: process.env.TESSERA_TEST_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.TESSERA_TEST_PG_PORT ?? 5432),
  database: process.env.TESSERA_TEST_PG_DATABASE ?? 'test',
  user: process.env.TESSERA_TEST_PG_USER ?? 'postgres',
  password: process.env.TESSERA_TEST_PG_PASSWORD ?? '',
};

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const EXAMPLE_APP = path.join(REPO_ROOT, 'apps/example');
export const SHARED_REFERENCE = path.resolve(REPO_ROOT, '../shared/reference');

/**
 * For a `before` hook of a Strapi-parity suite: skips the suite when one of
 * these reference files (relative to SHARED_REFERENCE) is missing — except
 * under CI=true, where it fails: parity is checked in CI, never skipped.
 */
export function requireReference(context: Mocha.Context, ...files: string[]): void {
  const missing = files.map((file) => path.join(SHARED_REFERENCE, file)).filter((file) => !fs.existsSync(file));
  if (missing.length === 0) return;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(`CI=true and the Strapi v4 reference is missing (${missing.join(', ')}): the parity tests must run in CI`);
  }
  context.skip();
}

/** Runs `body` once per database, inside `describe('[sqlite]')` etc. */
export function eachDatabase(title: string, body: (dialect: TestDialect) => void): void {
  for (const dialect of DIALECTS) describe(`${title} [${dialect}]`, () => body(dialect));
}

export interface TestAppOptions {
  dialect: TestDialect;
  /** Copy this app folder (its config/ and src/) into a temporary one. */
  from?: string;
  /** Files to write into the app folder, by relative path (objects are written as JSON). */
  files?: Record<string, string | object>;
  /** Config overrides (by top-level file name). */
  config?: ConfigTree;
  plugins?: Plugin[];
  /** An existing SQLite file to copy in as the app's database. */
  sqliteFile?: string;
  /** Reuse a database from a previous TestApp (to test restarts): its `databaseHandle`. */
  database?: DatabaseHandle;
  /** Do not listen (only load). */
  noListen?: boolean;
  /** What `strapi.reload()` calls, as `tessera develop` gives it (the content-type builder's restart). */
  restart?: (reason: string) => void;
  /** A node_modules folder (npm-installed packages) to link into the app folder, as an app's own. */
  nodeModules?: string;
  /** Folders of the app that are links to existing ones, by relative path (a prebuilt admin panel as `build`); never removed with the app. */
  links?: Record<string, string>;
}

export interface DatabaseHandle {
  dialect: TestDialect;
  sqliteFile?: string;
  schema?: string;
  /** A temporary folder made only for this database: removed with it (a run leaves no folder behind). */
  folder?: string;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body string (sent as-is with content-type application/json unless headers say otherwise). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export class TestApp {
  constructor(
    readonly app: App,
    readonly dir: string,
    readonly database: DatabaseHandle,
    readonly url: string,
  ) {}

  async request<T = any>(method: string, pathAndQuery: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.url}${pathAndQuery}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get(pathAndQuery: string, options?: RequestOptions) {
    return this.request('GET', pathAndQuery, options);
  }

  post(pathAndQuery: string, body: unknown, options: RequestOptions = {}) {
    return this.request('POST', pathAndQuery, { ...options, body });
  }

  put(pathAndQuery: string, body: unknown, options: RequestOptions = {}) {
    return this.request('PUT', pathAndQuery, { ...options, body });
  }

  delete(pathAndQuery: string, options?: RequestOptions) {
    return this.request('DELETE', pathAndQuery, options);
  }

  /** A full-access API token, created through the real token service. */
  async fullAccessToken(): Promise<string> {
    const { accessKey } = await this.app.apiTokens.create({ name: `full-${crypto.randomUUID()}`, type: 'full-access' });
    return accessKey;
  }

  /** Stops the app; keeps the database when `keepDatabase` (restart tests). */
  async stop(options: { keepDatabase?: boolean } = {}): Promise<void> {
    await this.app.destroy();
    if (!options.keepDatabase) await dropDatabase(this.database);
    // Kept only while it holds the SQLite file a later app reuses (dropping that database removes it then).
    const holdsKeptDatabase = options.keepDatabase === true && this.database.folder === this.dir;
    if (!holdsKeptDatabase) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function startApp(options: TestAppOptions): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-test-'));
  if (options.from) {
    for (const part of ['config', 'src']) {
      const source = path.join(options.from, part);
      if (fs.existsSync(source)) fs.cpSync(source, path.join(dir, part), { recursive: true });
    }
  }
  for (const [relative, content] of Object.entries(options.files ?? {})) {
    const file = path.join(dir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  if (options.nodeModules) fs.symlinkSync(options.nodeModules, path.join(dir, 'node_modules'), 'dir');
  for (const [relative, target] of Object.entries(options.links ?? {})) fs.symlinkSync(target, path.join(dir, relative), 'dir');
  const database = options.database ?? (await createDatabase(options.dialect, dir, options.sqliteFile));
  const config: ConfigTree = {
    ...(options.config ?? {}),
    database: { connection: databaseConnection(database) },
    server: { host: '127.0.0.1', port: 0, ...((options.config?.server as object) ?? {}) },
    admin: { apiToken: { salt: 'test-salt' }, ...((options.config?.admin as object) ?? {}) },
  };
  const appOptions: AppOptions = { dir, plugins: options.plugins ?? [restPlugin], config, restart: options.restart };
  const app = new App(appOptions);
  try {
    if (options.noListen) await app.load();
    else await app.start();
  } catch (error) {
    await app.destroy().catch(() => undefined);
    if (!options.database) await dropDatabase(database);
    // A boot that fails (the boot-error tests) leaves no app folder behind.
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return new TestApp(app, dir, database, app.url ?? '');
}

/** A fresh, empty database: a SQLite file in `dir`, or a new Postgres schema. */
export async function createDatabase(dialect: TestDialect, dir: string, sqliteFile?: string): Promise<DatabaseHandle> {
  if (dialect === 'sqlite') {
    const file = path.join(dir, '.tmp', 'data.db');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (sqliteFile) fs.copyFileSync(sqliteFile, file);
    // The file lives in `dir`: dropping the database removes the folder (a restart test's first app folder too).
    return { dialect, sqliteFile: file, folder: dir };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  if (dialect === 'mysql') {
    await withMysql((client) => client.query(`CREATE DATABASE \`${schema}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`));
    return { dialect, schema };
  }
  await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
  return { dialect, schema };
}

export async function dropDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.dialect === 'mysql' && handle.schema) {
    await withMysql((client) => client.query(`DROP DATABASE IF EXISTS \`${handle.schema}\``));
  }
  if (handle.dialect === 'postgres' && handle.schema) {
    await withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${handle.schema}" CASCADE`));
  }
  if (handle.folder) fs.rmSync(handle.folder, { recursive: true, force: true });
}

export function databaseConnection(handle: DatabaseHandle): Record<string, unknown> {
  if (handle.dialect === 'sqlite') return { client: 'sqlite', connection: { filename: handle.sqliteFile } };
  if (handle.dialect === 'mysql') return { client: 'mysql', connection: { ...MYSQL, database: handle.schema }, pool: { min: 0, max: 5 } };
  return { client: 'postgres', connection: { ...POSTGRES, schema: handle.schema }, pool: { min: 0, max: 5 } };
}

export async function withMysql<T>(work: (client: import('mysql2/promise').Connection) => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
  const client = await mysql.createConnection(MYSQL);
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function withPostgres<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(POSTGRES);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts an app that is expected to fail at boot; returns the error. Started, not only loaded: what only a serving
 * app builds (the GraphQL schema, before it listens) fails the boot too.
 */
export async function bootError(options: TestAppOptions): Promise<Error> {
  try {
    const started = await startApp({ ...options, noListen: false });
    await started.stop();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the app to fail to boot, but it booted');
}

/**
 * Runs `boot` with NODE_ENV=production and the secrets production requires
 * (the example app refuses to boot without them), then restores the
 * environment whatever happens: a leaked NODE_ENV would change every later test.
 */
export async function inProduction<T>(boot: () => Promise<T>): Promise<T> {
  const keys = ['NODE_ENV', 'API_TOKEN_SALT', 'JWT_SECRET'] as const;
  const saved = keys.map((key) => process.env[key]);
  process.env.NODE_ENV = 'production';
  process.env.API_TOKEN_SALT ??= 'test-production-salt';
  process.env.JWT_SECRET ??= 'test-production-jwt-secret';
  try {
    return await boot();
  } finally {
    keys.forEach((key, index) => {
      if (saved[index] === undefined) delete process.env[key];
      else process.env[key] = saved[index];
    });
  }
}
export { seededRandom } from './random';
export { planOf, planNodes, planRowsTouched, type PlanNode } from './postgres-plan';
export { mariadbTableAccesses, type MariadbTableAccess } from './mariadb-plan';
export { groupAlive, killGroup, spawnGroup } from './process-groups';

export { WebhookReceiver, type ReceivedRequest } from './webhook-receiver';
export { TestSmtp, type Mail } from './smtp';
export { registryUnreachable } from './npm-registry';
export { CHROMIUM, chromiumMissing, openBrowser, panelHome, filledValue, type BrowserSession, type BrowserWatch } from './browser';

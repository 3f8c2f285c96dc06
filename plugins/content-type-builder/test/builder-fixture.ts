/**
 * The builder tests' app: the Strapi 4.26.2 peer's model (fixtures/peer-app, as the peer's src/ was before the
 * recorded steps), with the plugins the peer runs, the admin panel's package (so the admin plugin is on), and
 * what the recordings of recorded/ were made with.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type DatabaseHandle, type TestApp, type TestDialect } from '@tessera/testing';

export const PEER_APP = path.join(__dirname, 'fixtures', 'peer-app');
export const RECORDED = path.join(__dirname, 'recorded');
const PACKAGE = {
  name: 'ctb-write-peer',
  version: '0.1.0',
  dependencies: { '@strapi/strapi': '4.26.2', '@strapi/admin': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2', '@strapi/plugin-i18n': '4.26.2' },
};
const ADMIN = { email: 'ctb@example.com', password: 'Secret123', firstname: 'Ctb', lastname: 'Admin' };

export interface BuilderAppOptions {
  /** Strapi's autoReload (on under `tessera develop`): the builder writes only with it. */
  autoReload: boolean;
  /** What `strapi.reload()` calls (the develop supervisor's restart). */
  restart?: (reason: string) => void;
  /** Start from this app folder (a restart) instead of the peer's model. */
  from?: string;
  database?: DatabaseHandle;
}

export function startBuilderApp(dialect: TestDialect, options: BuilderAppOptions): Promise<TestApp> {
  return startApp({
    dialect,
    from: options.from ?? PEER_APP,
    files: { 'package.json': PACKAGE },
    config: { admin: { auth: { secret: 'ctb-write-secret' } }, ...(options.autoReload ? { autoReload: true } : {}) },
    restart: options.restart,
    database: options.database,
  });
}

/** The first admin (a Super Admin), registered as the panel does; its session token. */
export async function registerAdmin(app: TestApp): Promise<string> {
  const response = await app.post('/admin/register-admin', ADMIN);
  if (response.status !== 200) throw new Error(`register-admin answered ${response.status}: ${response.text}`);
  return String(response.body.data.token);
}

/** A signed-in admin's token on an app restarted over the same database. */
export async function login(app: TestApp): Promise<string> {
  const response = await app.post('/admin/login', { email: ADMIN.email, password: ADMIN.password });
  if (response.status !== 200) throw new Error(`login answered ${response.status}: ${response.text}`);
  return String(response.body.data.token);
}

export const recorded = (relative: string): string => fs.readFileSync(path.join(RECORDED, relative), 'utf8');
export const recordedJson = <T>(relative: string): T => JSON.parse(recorded(relative)) as T;

/** Every file under `dir`, relative, sorted. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A builder app in development that a test restarts as `tessera develop` does: the app's files copied to a new
 * folder with the same database, and a new app booted on them (the builder asks for the restart; `restarts` lists
 * what it asked). `app` and `token` are the current app's.
 */
export class DevelopSession {
  app!: TestApp;
  token = '';
  readonly restarts: string[] = [];
  private readonly copies: string[] = [];

  constructor(private readonly dialect: TestDialect) {}

  async start(): Promise<void> {
    this.app = await startBuilderApp(this.dialect, { autoReload: true, restart: (reason) => this.restarts.push(reason) });
    this.token = await registerAdmin(this.app);
  }

  async restart(): Promise<void> {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'ctb-restart-'));
    this.copies.push(copy);
    fs.cpSync(path.join(this.app.dir, 'src'), path.join(copy, 'src'), { recursive: true });
    const database = this.app.database;
    await this.app.stop({ keepDatabase: true });
    this.app = await startBuilderApp(this.dialect, { autoReload: true, restart: (reason) => this.restarts.push(reason), from: copy, database });
    this.token = await login(this.app);
  }

  async stop(): Promise<void> {
    await this.app?.stop();
    for (const copy of this.copies) fs.rmSync(copy, { recursive: true, force: true });
  }
}

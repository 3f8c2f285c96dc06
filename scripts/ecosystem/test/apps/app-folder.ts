/**
 * Real apps as their users get them, for the ecosystem tests: a folder copied from a vendored snapshot
 * (`fixtures/<app>`, pinned to a commit, license kept) or taken from a fetched repository's git objects, packages
 * installed from the npm registry into it, and a Tessera boot of the folder as it is. Each step that cannot run
 * here (no registry) says why and the test skips.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import { createDatabase, databaseConnection, dropDatabase, registryUnreachable, TestApp, type DatabaseHandle, type TestDialect } from '@tessera/testing';

/** Apps made from npm packages skip, saying why, without the registry. */
export { registryUnreachable } from '@tessera/testing';

/** Writes `folder/` of the repository at `gitDir` (a bare mirror) at `rev` into a new temp folder; blobs the mirror lacks are listed, not fatal. */
export function extractFolder(gitDir: string, folder: string, rev = 'HEAD'): { dir: string; missing: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-eco-'));
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', rev, folder], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const missing: string[] = [];
  for (const line of listing.split('\n').filter(Boolean)) {
    const [meta, file] = line.split('\t');
    const sha = meta.split(' ')[2];
    const blob = spawnSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', sha], { maxBuffer: 256 * 1024 * 1024 });
    if (blob.status !== 0) {
      missing.push(file);
      continue;
    }
    const target = path.join(dir, path.relative(folder, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, blob.stdout);
  }
  return { dir, missing };
}

/**
 * The app folder a test boots, in a new temp folder (the test installs packages into it): `fixture` copied, or
 * `folder/` of the bare repository named by the environment variable `mirrorVariable` at `rev`, when it is set.
 */
export function appFolder(fixture: string, mirror: { variable: string; folder: string; rev: string }): string {
  const gitDir = process.env[mirror.variable];
  if (gitDir) {
    const extracted = extractFolder(gitDir, mirror.folder, mirror.rev);
    if (extracted.missing.length > 0) console.log(`    not in the mirror (left out): ${extracted.missing.join(', ')}`);
    return extracted.dir;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-eco-'));
  fs.cpSync(fixture, dir, { recursive: true });
  return dir;
}

/**
 * A vendored real app's `before` hook: skips the suite, saying why, when the npm registry does not answer; else
 * the app folder (appFolder) with its dependencies installed, but for those `provided` says Tessera stands in for.
 */
export function installedAppFolder(
  suite: Mocha.Context,
  fixture: string,
  mirror: { variable: string; folder: string; rev: string },
  provided: (name: string) => boolean = providedByTessera,
): string {
  const unreachable = registryUnreachable();
  if (unreachable) {
    console.log(`    skipped: ${unreachable}`);
    suite.skip();
  }
  const dir = appFolder(fixture, mirror);
  const thirdParty = Object.entries(dependencies(dir)).filter(([name]) => !provided(name));
  npmInstall(dir, thirdParty.map(([name, range]) => `${name}@${range}`));
  return dir;
}

/**
 * A real app not vendored here (its repository has no license file to keep beside a copy): the `before` hook of its
 * test takes `folder/` at `rev` from a bare clone — `$<variable>`, else the snapshot the project's repository
 * fetcher keeps at `/work/.mirror/<owner>+<name>/repo` — and installs its dependencies as installedAppFolder does
 * (`install.versions`: a version to install instead of the one the app names, when that one left the registry).
 * Skips the suite, saying why, when there is no such clone, it lacks `rev`, or the npm registry does not answer.
 */
export function mirroredAppFolder(
  suite: Mocha.Context,
  mirror: { variable: string; repository: string; folder: string; rev: string },
  install: { provided?: (name: string) => boolean; versions?: Record<string, string> } = {},
): string {
  const clone = process.env[mirror.variable] ?? path.join('/work/.mirror', mirror.repository.replace('/', '+'), 'repo');
  const gitDir = fs.existsSync(path.join(clone, '.git')) ? path.join(clone, '.git') : clone;
  const has = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${mirror.rev}^{commit}`], { encoding: 'utf8' });
  const unreachable = has.status === 0 ? registryUnreachable() : `no clone of ${mirror.repository} holding ${mirror.rev} at ${gitDir} (set ${mirror.variable} to a bare clone)`;
  if (unreachable) {
    console.log(`    skipped: ${unreachable}`);
    suite.skip();
  }
  const { dir, missing } = extractFolder(gitDir, mirror.folder, mirror.rev);
  if (missing.length > 0) console.log(`    not in the clone (left out): ${missing.join(', ')}`);
  const thirdParty = Object.entries(dependencies(dir)).filter(([name]) => !(install.provided ?? providedByTessera)(name));
  npmInstall(dir, thirdParty.map(([name, range]) => `${name}@${install.versions?.[name] ?? range}`));
  return dir;
}

/** Why the npm registry cannot be used, or undefined when it answers. */
/**
 * `npm install <specs>` into the app folder without touching its package.json (as `npm install` of those
 * dependencies would leave node_modules), peer dependencies not pulled in: Tessera provides `@strapi/*`.
 */
export function npmInstall(dir: string, specs: string[]): void {
  if (specs.length === 0) return;
  const manifest = path.join(dir, 'package.json');
  const saved = fs.existsSync(manifest) ? fs.readFileSync(manifest) : undefined;
  if (saved) fs.renameSync(manifest, `${manifest}.saved`);
  try {
    const result = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', ...specs], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
    if (result.status !== 0) throw new Error(`npm install ${specs.join(' ')} failed: ${result.stderr}`);
  } finally {
    if (saved) fs.renameSync(`${manifest}.saved`, manifest);
  }
}

/** The app's dependencies by name → version range. */
export function dependencies(dir: string): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return pkg.dependencies ?? {};
}

/** Tessera's own plugins by the Strapi package they stand for; upload is always on in Strapi v4. */
const TESSERA_PLUGINS: Record<string, string> = {
  '@strapi/plugin-users-permissions': 'users-permissions',
  '@strapi/plugin-i18n': 'i18n',
  '@strapi/plugin-graphql': 'graphql',
  '@strapi/plugin-upload': 'upload',
};

/**
 * A dependency Tessera stands in for, which the tests do not install: Strapi itself, the Strapi plugins Tessera
 * implements, and the SQLite driver Strapi's default database config names (Tessera brings its own). Any other
 * package — a third-party or `@strapi/` plugin Tessera does not implement, a library the app's code requires — is
 * installed from npm as the app's `npm install` would.
 */
export function providedByTessera(name: string): boolean {
  return name === '@strapi/strapi' || name in TESSERA_PLUGINS || name === '@strapi/plugin-email' || name === 'better-sqlite3';
}

/** A fresh database in a folder of its own, removed with it (dropDatabase). */
async function ownDatabase(dialect: TestDialect): Promise<DatabaseHandle> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-eco-db-'));
  return { ...(await createDatabase(dialect, folder)), folder };
}

/** Boots the folder as it is, on a fresh database, with the working directory at the app (as `strapi start` runs). */
export async function bootFolder(dir: string, dialect: TestDialect, reuse?: DatabaseHandle): Promise<TestApp> {
  const deps = dependencies(dir);
  const plugins: Record<string, { enabled: true }> = { upload: { enabled: true } };
  for (const [pkg, name] of Object.entries(TESSERA_PLUGINS)) if (pkg in deps) plugins[name] = { enabled: true };
  const database = reuse ?? (await ownDatabase(dialect));
  const app = new App({
    dir,
    plugins: [restPlugin],
    config: {
      plugins,
      database: { connection: databaseConnection(database) },
      server: { host: '127.0.0.1', port: 0 },
      admin: { apiToken: { salt: 'ecosystem-salt' } },
    },
  });
  const previous = process.cwd();
  process.chdir(dir);
  try {
    await app.start();
  } catch (error) {
    await app.destroy().catch(() => undefined);
    if (!reuse) await dropDatabase(database);
    throw error;
  } finally {
    process.chdir(previous);
  }
  return new TestApp(app, dir, database, app.url ?? '');
}

/** Grants the public role `find`/`findOne` on `api::<name>.<name>` for each name, through users-permissions' tables. */
export async function grantPublicReads(app: App, names: string[]): Promise<void> {
  await grantRoleActions(app, { public: names.flatMap((name) => ['find', 'findOne'].map((action) => `api::${name}.${name}.${action}`)) });
}

/** Grants each role (by type: `public`, `authenticated`) its actions, as an admin ticks them in the admin panel. */
export async function grantRoleActions(app: App, roles: Record<string, string[]>): Promise<void> {
  for (const [type, actions] of Object.entries(roles)) {
    const role = await app.db.query('plugin::users-permissions.role').findOne({ where: { type } });
    if (!role) throw new Error(`no ${type} role: is users-permissions enabled?`);
    for (const action of actions) await app.db.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
  }
}

/** An admin step's database write on a Tessera app (content-client's `AdminWrite`). */
export function adminWrite(app: App): (uid: string, data: Record<string, unknown>, where?: Record<string, unknown>) => Promise<void> {
  return async (uid, data, where) => {
    if (where) await app.db.query(uid).updateMany({ where, data });
    else await app.db.query(uid).create({ data });
  };
}

/** Stops an app booted by `bootFolder`: the database is dropped, the folder kept (other databases boot it next). */
export async function stopFolderApp(app: TestApp | undefined): Promise<void> {
  if (!app) return;
  await app.app.destroy();
  await dropDatabase(app.database);
}

/**
 * The ecosystem harness: published Strapi v4 plugins and providers, installed
 * from npm at pinned versions, run unchanged in a scratch Tessera app.
 *
 * Every case's packages are installed together, by ONE `npm install` into a
 * folder kept between runs (keyed by the package list; the npm cache is the
 * user's, shared), with `--ignore-scripts` (no install scripts run) and
 * `--legacy-peer-deps` (a plugin's `@strapi/strapi` peer is not pulled in for
 * it). Each case's app lists only its own packages in package.json, as a
 * Strapi app would, and links that node_modules: discovery finds exactly them.
 * Tessera's packages are not installed: the app resolves them from the kernel.
 *
 * A case is data (see ../cases.ts): packages, app files, and what the app
 * object must offer for the plugin to boot (`needs`). A case whose needs the
 * kernel does not meet yet is skipped with the reason printed, never silently.
 */
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { App } from '@tessera/core';
import { startApp, type TestApp, type TestDialect } from '@tessera/testing';

const run = promisify(execFile);

export interface EcosystemCase {
  /** The suite's title: the package and what it shows. */
  title: string;
  /** npm packages at pinned versions; they become the app's `dependencies`. */
  packages: Record<string, string>;
  /** Files of the scratch app (config/plugins.js, schemas, …), by relative path; objects are written as JSON. */
  files: Record<string, string | object>;
  /**
   * npm `overrides` for the one install (`{ ipx: { sharp: '0.33.5' } }`): a package's dependency pinned to another
   * release, for a native module whose pinned one gets its binary only from an install script, which is not run.
   */
  overrides?: Record<string, Record<string, string>>;
  /** What the plugin calls on `strapi` at boot, by name, each a test on a loaded app. */
  needs?: Record<string, (app: App) => boolean>;
  /** A local service the package talks to (an S3-compatible store, …), started before the app boots; its `env` is set for the app's config. */
  service?: () => Promise<CaseService>;
}

export interface CaseService {
  /** Environment variables the app's config reads (`env('AWS_BUCKET')`, …). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** npm `overrides`: a package pinned everywhere (`{ 'get-intrinsic': '1.3.0' }`) or only under one (`{ ipx: { sharp: '0.33.5' } }`). */
export type Overrides = Record<string, string | Record<string, string>>;

export interface Installation {
  nodeModules: string;
}

let installation: Promise<Installation> | undefined;

/** Why the registry cannot be used, or undefined when it answers. */
export async function registryProblem(): Promise<string | undefined> {
  if (process.env.TESSERA_ECOSYSTEM_SKIP === '1') return 'TESSERA_ECOSYSTEM_SKIP=1';
  let registry = 'https://registry.npmjs.org/';
  try {
    registry = (await run('npm', ['config', 'get', 'registry'], { timeout: 20_000 })).stdout.trim() || registry;
  } catch {
    // npm answers with its default registry.
  }
  try {
    const response = await fetch(new URL('-/ping', registry.endsWith('/') ? registry : `${registry}/`), { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return `the npm registry ${registry} answered ${response.status}`;
    return undefined;
  } catch (error) {
    return `the npm registry ${registry} is not reachable (${(error as Error).message})`;
  }
}

/** Installs every case's packages once per process (and reuses a finished install of the same list). */
export function install(cases: EcosystemCase[]): Promise<Installation> {
  installation ??= installAll(cases);
  return installation;
}

async function installAll(cases: EcosystemCase[]): Promise<Installation> {
  const dependencies: Record<string, string> = {};
  const overrides: Record<string, Record<string, string>> = {};
  for (const item of cases) {
    for (const [name, version] of Object.entries(item.packages)) {
      if (dependencies[name] && dependencies[name] !== version) throw new Error(`${name} is pinned at ${dependencies[name]} and ${version}`);
      dependencies[name] = version;
    }
    for (const [name, pins] of Object.entries(item.overrides ?? {})) {
      for (const [dependency, version] of Object.entries(pins)) {
        const pinned = overrides[name]?.[dependency];
        if (pinned && pinned !== version) throw new Error(`${name}'s ${dependency} is overridden to ${pinned} and ${version}`);
        overrides[name] = { ...overrides[name], [dependency]: version };
      }
    }
  }
  return installPackages(dependencies, overrides);
}

/**
 * One `npm install` of exactly these packages into a folder kept between runs, keyed by the list (a suite that needs
 * its own set beside the shared one: the admin panel's plugins, with `@strapi/admin` and its peers deduplicated).
 */
export async function installPackages(dependencies: Record<string, string>, overrides: Overrides = {}): Promise<Installation> {
  // Without overrides the key is the one earlier runs made, so their install is reused.
  const listed: unknown[] = Object.entries(dependencies).sort();
  if (Object.keys(overrides).length > 0) listed.push(Object.entries(overrides).sort().map(([name, pins]) => [name, typeof pins === 'string' ? pins : Object.entries(pins).sort()]));
  const key = crypto.createHash('sha256').update(JSON.stringify(listed)).digest('hex').slice(0, 16);
  const dir = path.join(process.env.TESSERA_ECOSYSTEM_DIR ?? path.join(os.tmpdir(), 'tessera-ecosystem'), key);
  // One process installs a list at a time (the test runner starts this install early, beside the other tests):
  // the others wait for its `.installed`, or take over when it died.
  const lock = `${dir}.lock`;
  while (!fs.existsSync(path.join(dir, '.installed'))) {
    if (takeLock(lock)) {
      try {
        await installInto(dir, dependencies, overrides);
      } finally {
        fs.rmSync(lock, { force: true });
      }
      break;
    }
    await lockReleased(lock);
  }
  return { nodeModules: path.join(dir, 'node_modules') };
}

/** One `npm install` of the list, made beside `dir` and renamed into place: a reader never sees a half-made folder. */
async function installInto(dir: string, dependencies: Record<string, string>, overrides: Overrides): Promise<void> {
  if (fs.existsSync(path.join(dir, '.installed'))) return;
  const staging = `${dir}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(staging, { recursive: true });
  fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ name: 'tessera-ecosystem', private: true, dependencies, overrides }, null, 2));
  const started = Date.now();
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', '--prefer-offline', '--loglevel=error'], {
      cwd: staging,
      timeout: 10 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  fs.writeFileSync(path.join(staging, '.installed'), `${new Date().toISOString()} ${Date.now() - started} ms\n`);
  fs.rmSync(dir, { recursive: true, force: true }); // an unfinished folder from an interrupted run
  fs.renameSync(staging, dir);
  console.log(`      (ecosystem: installed ${Object.keys(dependencies).length} packages in ${Math.round((Date.now() - started) / 1000)} s into ${dir})`);
}

/** Creates the lock file holding this process's id; false when another process holds it. */
function takeLock(lock: string): boolean {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Resolves once the lock is gone, removing it when the process holding it has died. */
async function lockReleased(lock: string): Promise<void> {
  for (;;) {
    let holder: number;
    try {
      holder = Number(fs.readFileSync(lock, 'utf8'));
    } catch {
      return;
    }
    if (!processAlive(holder)) {
      fs.rmSync(lock, { force: true });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The needs of a case that the kernel does not meet, checked on a loaded bare app. */
export function unmetNeeds(item: EcosystemCase, bare: App): string[] {
  return Object.entries(item.needs ?? {})
    .filter(([, met]) => {
      try {
        return !met(bare);
      } catch {
        return true;
      }
    })
    .map(([name]) => name);
}

/**
 * Boots the case's app on a database: its package.json lists its packages, its node_modules is the installed one.
 * They are listed sorted, as `npm install` writes them: plugins register and bootstrap in that order, in Strapi as
 * here (`@strapi/plugin-users-permissions` before a plugin whose bootstrap grants the public role its actions).
 */
export function startCase(item: EcosystemCase, dialect: TestDialect, installed: Installation): Promise<TestApp> {
  const dependencies = Object.fromEntries(Object.entries(item.packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
  return startApp({
    dialect,
    nodeModules: installed.nodeModules,
    files: { 'package.json': { name: 'ecosystem-app', private: true, dependencies }, ...item.files },
  });
}

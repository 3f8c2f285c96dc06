/**
 * Packages a Strapi v4 app has without listing them. npm hoists the dependencies of Strapi's own packages to the top
 * of the app's node_modules, so app and plugin code requires them as if they were the app's (`url-join`, `purest`
 * and `jwk-to-pem` are users-permissions'; `lodash`, `koa`, `yup`…). A Tessera app does not install Strapi, so:
 *
 * - when Tessera itself has such a package at the major version Strapi 4.26.2 hoists, a require that finds none in
 *   the app gets Tessera's (load-module.ts's fallback), as it got Strapi's copy;
 * - otherwise loading the app stops with one line to run: `npm install` of every such package the app's files
 *   require and the app lacks, at the versions Strapi 4.26.2 installs (strapi-hoisted-packages.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import hoisted from './strapi-hoisted-packages.json';

/** name → [version Strapi 4.26.2 hoists, the Strapi package depending on it]. */
const PACKAGES: Readonly<Record<string, readonly string[]>> = hoisted.packages;
const SOURCE_EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.ts']);
/** Folders of the app whose files Tessera loads, read for the packages they require. */
const APP_FOLDERS = ['src', 'config'];
/** Most files read when looking for what else is missing: the list is advice, and an app of thousands of files is rare. */
const MAX_FILES = 5_000;

/** `lodash/fp` → `lodash`, `@scope/name/x` → `@scope/name`; undefined for a relative, absolute or `node:` request. */
export function packageOf(request: string): string | undefined {
  if (request.startsWith('.') || path.isAbsolute(request) || request.startsWith('node:')) return undefined;
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Strapi 4.26.2's hoisted version of `name` and the Strapi package that brings it, when it is one. */
export function hoistedByStrapi(name: string): { version: string; from: string } | undefined {
  const entry = Object.prototype.hasOwnProperty.call(PACKAGES, name) ? PACKAGES[name] : undefined;
  return entry ? { version: entry[0], from: entry[1] } : undefined;
}

const kernelCopies = new Map<string, boolean>();

/** Whether `request` may be answered with Tessera's own copy: a Strapi-hoisted package Tessera has at Strapi's major. */
export function kernelHasHoisted(request: string, resolveFromKernel: (request: string) => string): boolean {
  const name = packageOf(request);
  const strapi = name ? hoistedByStrapi(name) : undefined;
  if (!name || !strapi) return false;
  let same = kernelCopies.get(name);
  if (same === undefined) {
    same = false;
    try {
      const manifest = JSON.parse(fs.readFileSync(resolveFromKernel(`${name}/package.json`), 'utf8')) as { version?: string };
      same = major(manifest.version ?? '') === major(strapi.version);
    } catch {
      // Tessera has none, or the package hides its manifest: not answered from the kernel.
    }
    kernelCopies.set(name, same);
  }
  return same;
}

function major(version: string): string {
  return version.split('.')[0] ?? '';
}

/**
 * The error to stop the boot with when loading `file` failed because a package Strapi's dependencies gave every
 * Strapi app is missing: it names that package and gives one `npm install` line for every such package the app's
 * files require and lack. Undefined for any other error.
 */
export function missingHoistedPackage(error: unknown, file: string): ConfigurationError | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'MODULE_NOT_FOUND') return undefined;
  const request = /Cannot find module '([^']+)'/.exec((error as Error).message)?.[1];
  const name = request ? packageOf(request) : undefined;
  const strapi = name ? hoistedByStrapi(name) : undefined;
  if (!name || !strapi) return undefined;
  const appDir = appRoot(file);
  const missing = new Set([name, ...(appDir ? missingFrom(appDir) : [])]);
  const install = [...missing].sort().map((item) => `${item}@${hoistedByStrapi(item)!.version}`);
  return new ConfigurationError(
    `requires ${name}, which a Strapi ${hoisted.strapi} app has from ${strapi.from}'s dependencies; Tessera does not install Strapi's packages. ` +
      `Add what the app's code uses to it: npm install ${install.join(' ')}`,
    file,
  );
}

/** The app folder holding `file` (the nearest folder with a package.json, config/ or src/ above it). */
function appRoot(file: string): string | undefined {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) || (fs.existsSync(path.join(dir, 'config')) && fs.existsSync(path.join(dir, 'src')))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Strapi-hoisted packages the app's own files require that do not resolve from the app. */
export function missingFrom(appDir: string): string[] {
  const missing = new Set<string>();
  for (const file of sourceFiles(appDir)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:require\s*\(\s*|from\s+|import\s+)['"]([^'"\n]+)['"]/g)) {
      const name = packageOf(match[1]);
      if (name && !missing.has(name) && hoistedByStrapi(name) && !resolvesFrom(name, appDir)) missing.add(name);
    }
  }
  return [...missing];
}

function resolvesFrom(name: string, dir: string): boolean {
  for (const request of [`${name}/package.json`, name]) {
    try {
      require.resolve(request, { paths: [dir] });
      return true;
    } catch {
      // The next form, or not installed.
    }
  }
  return false;
}

function sourceFiles(appDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= MAX_FILES) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full);
      else if (entry.isFile() && SOURCE_EXTENSIONS.has(path.extname(entry.name)) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const folder of APP_FOLDERS) walk(path.join(appDir, folder));
  return files;
}

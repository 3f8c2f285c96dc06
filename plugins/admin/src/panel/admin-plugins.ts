/**
 * The plugins whose admin sides go into the panel, found as Strapi 4.26.2's
 * build finds them (`getEnabledPlugins` + `getMapOfPluginsWithAdmin`): each
 * dependency of the app whose package.json says `strapi.kind: plugin` and that
 * has a `<package>/strapi-admin` entry, each local plugin of config/plugins
 * (`resolve`, enabled) with a `strapi-admin.js`; plus what `@strapi/strapi/admin`
 * always adds in a Strapi app (the content-type builder, email, upload and
 * releases), when the app has those packages installed; without
 * `@strapi/content-releases`, Tessera's community-edition stand-in for it
 * (community-stand-ins.ts: other admin sides count on its hook).
 *
 * Unlike Strapi's build, a plugin turned off in config/plugins (`false`,
 * `enabled: false`) is left out: its server side does not run here, so its
 * pages would only call routes nobody serves. A local plugin's `version` is a
 * digest of its admin files, so the build's stamp changes when they do.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CONTENT_RELEASES_COMMUNITY, standInVersion, type StandIn } from './community-stand-ins';

export interface PanelPlugin {
  /** The key in the panel's plugin map (`users-permissions`). */
  name: string;
  /** The identifier the entry module imports it as (Strapi's camelCase of the name). */
  importName: string;
  /** What the entry module imports (`@strapi/plugin-i18n/strapi-admin`, or a path relative to the runtime dir). */
  modulePath: string;
  /** The package and version, for the build's cache key (`local:<digest of its admin files>` for an app's own plugin). */
  version: string;
  /** A module Tessera writes into the runtime folder as `modulePath` (a stand-in: community-stand-ins.ts). */
  source?: string;
}

/** `@strapi/strapi/admin`'s own additions, under its keys. */
const STRAPI_BUNDLED: Array<[string, string]> = [
  ['content-type-builder', '@strapi/plugin-content-type-builder'],
  ['email', '@strapi/plugin-email'],
  ['upload', '@strapi/plugin-upload'],
  ['contentReleases', '@strapi/content-releases'],
];

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  strapi?: { kind?: string; name?: string };
  exports?: unknown;
}

export function panelPlugins(appDir: string, runtimeDir: string, pluginConfig: Record<string, unknown>): PanelPlugin[] {
  const found = new Map<string, PanelPlugin>();
  const disabled = new Set(Object.entries(pluginConfig).filter(([, setting]) => setting === false || (isObject(setting) && setting.enabled === false)).map(([name]) => name));
  for (const [name, packageName] of STRAPI_BUNDLED) {
    const manifest = installedManifest(packageName, appDir);
    if (manifest && !disabled.has(name) && hasAdminEntry(packageName, appDir)) found.set(name, plugin(name, `${packageName}/strapi-admin`, `${packageName}@${manifest.version}`));
    else if (name === CONTENT_RELEASES_COMMUNITY.name && !disabled.has(name)) found.set(name, standIn(CONTENT_RELEASES_COMMUNITY));
  }
  const app = readManifest(path.join(appDir, 'package.json'));
  for (const dependency of Object.keys(app?.dependencies ?? {})) {
    const manifest = installedManifest(dependency, appDir);
    if (manifest?.strapi?.kind !== 'plugin') continue;
    const name = manifest.strapi.name || manifest.name || dependency;
    if (!disabled.has(name) && hasAdminEntry(dependency, appDir)) found.set(name, plugin(name, `${dependency}/strapi-admin`, `${dependency}@${manifest.version}`));
  }
  for (const [name, setting] of Object.entries(pluginConfig)) {
    if (!isObject(setting)) continue;
    const { enabled, resolve } = setting;
    if (enabled !== true || typeof resolve !== 'string') continue;
    if (!resolve.startsWith('.') && !path.isAbsolute(resolve)) {
      // `resolve` naming a package (the kernel loads such a plugin too): its package entry, as for a dependency.
      const manifest = installedManifest(resolve, appDir);
      if (manifest && hasAdminEntry(resolve, appDir)) found.set(name, plugin(name, `${resolve}/strapi-admin`, `${resolve}@${manifest.version}`));
      continue;
    }
    const dir = path.resolve(appDir, resolve);
    if (!fs.existsSync(path.join(dir, 'strapi-admin.js'))) continue;
    const relative = path.relative(runtimeDir, path.join(dir, 'strapi-admin.js')).split(path.sep).join('/');
    found.set(name, plugin(name, relative.startsWith('.') ? relative : `./${relative}`, `local:${localAdminDigest(dir)}`));
  }
  return [...found.values()];
}

function isObject(value: unknown): value is { enabled?: unknown; resolve?: unknown } {
  return typeof value === 'object' && value !== null;
}

/** A digest of a local plugin's admin side: `strapi-admin.js` and its `admin/` folder (names and contents). */
function localAdminDigest(dir: string): string {
  const hash = createHash('sha256');
  const add = (file: string) => hash.update(path.relative(dir, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  add(path.join(dir, 'strapi-admin.js'));
  const walk = (current: string) => {
    if (!fs.existsSync(current)) return;
    for (const entry of fs.readdirSync(current, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name === 'node_modules') continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) add(full);
    }
  };
  walk(path.join(dir, 'admin'));
  return hash.digest('hex').slice(0, 16);
}

function standIn(module: StandIn): PanelPlugin {
  return { ...plugin(module.name, `./${module.file}`, standInVersion(module)), source: module.source };
}

function plugin(name: string, modulePath: string, version: string): PanelPlugin {
  return { name, importName: camelCase(name), modulePath, version };
}

/** lodash's camelCase for plugin names (`users-permissions` → `usersPermissions`, `i18n` → `i18N`). */
export function camelCase(name: string): string {
  const words = name.match(/[A-Z]{2,}(?=[A-Z][a-z]+[0-9]*|\b)|[A-Z]?[a-z]+|[A-Z]|[0-9]+/g) ?? [name];
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('');
}

/**
 * Packages are found as Node finds them (each `node_modules` from the app up), reading files rather than asking
 * `require.resolve`: once an app has booted in this process (tests, `tessera develop`'s restarts), the kernel answers
 * `@strapi/plugin-users-permissions/strapi-admin` and the other plugins it implements with its own stand-in, which
 * would drop their admin sides from the build and change its stamp.
 */
function packageDir(packageName: string, appDir: string): string | undefined {
  for (let dir = path.resolve(appDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', packageName);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function installedManifest(packageName: string, appDir: string): Manifest | undefined {
  const dir = packageDir(packageName, appDir);
  return dir ? readManifest(path.join(dir, 'package.json')) : undefined;
}

/** Whether `<package>/strapi-admin` resolves: its `exports` entry when the package has an exports map, else the file. */
function hasAdminEntry(packageName: string, appDir: string): boolean {
  const dir = packageDir(packageName, appDir);
  const manifest = dir ? readManifest(path.join(dir, 'package.json')) : undefined;
  if (!dir || !manifest) return false;
  if (manifest.exports && typeof manifest.exports === 'object') {
    const entry = (manifest.exports as Record<string, unknown>)['./strapi-admin'];
    const target = typeof entry === 'string' ? entry : conditionTarget(entry);
    return target !== undefined && fs.existsSync(path.join(dir, target));
  }
  return ['strapi-admin.js', 'strapi-admin.mjs', 'strapi-admin.cjs', path.join('strapi-admin', 'index.js')].some((file) => fs.existsSync(path.join(dir, file)));
}

/** The file a conditional exports entry gives a CommonJS build (`require`, then `default`, then `import`). */
function conditionTarget(entry: unknown): string | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const conditions = entry as Record<string, unknown>;
  for (const key of ['require', 'default', 'import']) if (typeof conditions[key] === 'string') return conditions[key] as string;
  return undefined;
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

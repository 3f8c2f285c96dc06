/**
 * The plugins whose admin sides go into the panel, found as Strapi 4.26.2's
 * build finds them (`getEnabledPlugins` + `getMapOfPluginsWithAdmin`): each
 * dependency of the app whose package.json says `strapi.kind: plugin` and that
 * has a `<package>/strapi-admin` entry, each local plugin of config/plugins
 * (`resolve`, enabled) with a `strapi-admin.js`; plus what `@strapi/strapi/admin`
 * always adds in a Strapi app (the content-type builder, email, upload and
 * releases), when the app has those packages installed.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface PanelPlugin {
  /** The key in the panel's plugin map (`users-permissions`). */
  name: string;
  /** The identifier the entry module imports it as (Strapi's camelCase of the name). */
  importName: string;
  /** What the entry module imports (`@strapi/plugin-i18n/strapi-admin`, or a path relative to the runtime dir). */
  modulePath: string;
  /** The package and version, for the build's cache key (`local` for an app's own plugin). */
  version: string;
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
}

export function panelPlugins(appDir: string, runtimeDir: string, pluginConfig: Record<string, unknown>): PanelPlugin[] {
  const found = new Map<string, PanelPlugin>();
  for (const [name, packageName] of STRAPI_BUNDLED) {
    const manifest = installedManifest(packageName, appDir);
    if (manifest && hasAdminEntry(packageName, appDir)) found.set(name, plugin(name, `${packageName}/strapi-admin`, `${packageName}@${manifest.version}`));
  }
  const app = readManifest(path.join(appDir, 'package.json'));
  for (const dependency of Object.keys(app?.dependencies ?? {})) {
    const manifest = installedManifest(dependency, appDir);
    if (manifest?.strapi?.kind !== 'plugin') continue;
    const name = manifest.strapi.name || manifest.name || dependency;
    if (hasAdminEntry(dependency, appDir)) found.set(name, plugin(name, `${dependency}/strapi-admin`, `${dependency}@${manifest.version}`));
  }
  for (const [name, setting] of Object.entries(pluginConfig)) {
    if (!setting || typeof setting !== 'object') continue;
    const { enabled, resolve } = setting as { enabled?: unknown; resolve?: unknown };
    if (enabled !== true || typeof resolve !== 'string') continue;
    const dir = path.resolve(appDir, resolve);
    if (!fs.existsSync(path.join(dir, 'strapi-admin.js'))) continue;
    const relative = path.relative(runtimeDir, path.join(dir, 'strapi-admin.js')).split(path.sep).join('/');
    found.set(name, plugin(name, relative.startsWith('.') ? relative : `./${relative}`, 'local'));
  }
  return [...found.values()];
}

function plugin(name: string, modulePath: string, version: string): PanelPlugin {
  return { name, importName: camelCase(name), modulePath, version };
}

/** lodash's camelCase for plugin names (`users-permissions` → `usersPermissions`, `i18n` → `i18N`). */
export function camelCase(name: string): string {
  const words = name.match(/[A-Z]{2,}(?=[A-Z][a-z]+[0-9]*|\b)|[A-Z]?[a-z]+|[A-Z]|[0-9]+/g) ?? [name];
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('');
}

function installedManifest(packageName: string, appDir: string): Manifest | undefined {
  try {
    return readManifest(require.resolve(`${packageName}/package.json`, { paths: [appDir] }));
  } catch {
    return undefined;
  }
}

function hasAdminEntry(packageName: string, appDir: string): boolean {
  try {
    require.resolve(`${packageName}/strapi-admin`, { paths: [appDir] });
    return true;
  } catch {
    return false;
  }
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

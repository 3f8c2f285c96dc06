/**
 * Plugins installed in the app, found as Strapi v4 finds them
 * (`get-enabled-plugins.js`): each package in the app's package.json
 * `dependencies` whose own package.json says `"strapi": { "kind": "plugin",
 * "name": … }` is a plugin under that name, enabled unless config/plugins
 * says `enabled: false`.
 *
 * Strapi's own plugin packages that Tessera implements itself
 * (`@strapi/plugin-i18n`, …) stand for Tessera's plugin of that name: an app
 * listing `@strapi/plugin-i18n` gets Tessera's i18n, whether or not the npm
 * package is installed. Any other package (`@strapi/plugin-sentry`,
 * `strapi-plugin-slugify`) is loaded as it is.
 *
 * Strapi always runs its internal plugins; of those, Tessera has `upload`,
 * `email` and `content-type-builder`'s content API, so an app that depends on `@strapi/strapi` (a Strapi app) gets
 * upload and email too, and every app gets the content-type builder's content API (behind its actions, as on
 * Strapi: a full-access token reads the model, the public role does not; `config/plugins` may turn it off).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';

/** Strapi's plugin packages Tessera provides itself, by plugin name (also what their `strapi-server` imports answer: load-module.ts). */
export const BUILT_IN: ReadonlyMap<string, string> = new Map([
  ['@strapi/plugin-users-permissions', 'users-permissions'],
  ['@strapi/plugin-upload', 'upload'],
  ['@strapi/plugin-graphql', 'graphql'],
  ['@strapi/plugin-i18n', 'i18n'],
  ['@strapi/plugin-email', 'email'],
  ['@strapi/plugin-content-type-builder', 'content-type-builder'],
]);

/**
 * `@strapi/admin`, Strapi's admin panel (a package every Strapi app has, not a plugin package): an app depending on
 * it gets Tessera's admin (`@tessera/plugin-admin`: the admin API, the panel's build served). Without it the app
 * runs API-only.
 */
const ADMIN_PACKAGE = '@strapi/admin';
/**
 * Strapi's internal plugins that only the panel calls (Strapi runs them in every app): Tessera turns them on with
 * the admin, since without the panel nothing calls their admin routes.
 */
const ADMIN_SIDE = ['content-manager'];

/** Strapi's internal plugins (always on in a Strapi app) that Tessera has. */
const STRAPI_INTERNAL = ['upload', 'email'];
/** Those every app gets, Strapi app or not: gatsby-source-strapi reads the model there before anything else. */
const ALWAYS_ON = ['content-type-builder'];

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface InstalledPlugin {
  name: string;
  /** The dependency that brought it (`strapi-plugin-slugify`, `@strapi/plugin-i18n`). */
  packageName: string;
  /** The package folder; absent when Tessera's own plugin stands in (`builtIn`). */
  dir?: string;
  /** The Tessera package that provides it (`@tessera/plugin-i18n`). */
  builtIn?: string;
}

interface PackageManifest {
  name?: string;
  dependencies?: Record<string, string>;
  strapi?: { kind?: string; name?: string };
}

export function installedPlugins(appDir: string): Map<string, InstalledPlugin> {
  const found = new Map<string, InstalledPlugin>();
  const manifest = readManifest(path.join(appDir, 'package.json'));
  for (const name of ALWAYS_ON) found.set(name, { name, packageName: '@strapi/strapi', builtIn: `@tessera/plugin-${name}` });
  if (manifest?.dependencies?.['@strapi/strapi'] !== undefined) {
    for (const name of STRAPI_INTERNAL) found.set(name, { name, packageName: '@strapi/strapi', builtIn: `@tessera/plugin-${name}` });
  }
  if (manifest?.dependencies?.[ADMIN_PACKAGE] !== undefined) {
    found.set('admin', { name: 'admin', packageName: ADMIN_PACKAGE, builtIn: '@tessera/plugin-admin' });
    for (const name of ADMIN_SIDE) found.set(name, { name, packageName: ADMIN_PACKAGE, builtIn: `@tessera/plugin-${name}` });
  }
  for (const packageName of Object.keys(manifest?.dependencies ?? {})) {
    const builtIn = BUILT_IN.get(packageName);
    if (builtIn) {
      found.set(builtIn, { name: builtIn, packageName, builtIn: `@tessera/plugin-${builtIn}` });
      continue;
    }
    const file = resolveManifest(packageName, appDir);
    const info = file ? readManifest(file) : undefined;
    if (!file || info?.strapi?.kind !== 'plugin') continue;
    const name = info.strapi.name ?? '';
    if (!KEBAB.test(name)) throw new ConfigurationError(`plugin name "${name}" is not in kebab-case (an-example-of-kebab-case)`, file);
    found.set(name, { name, packageName, dir: path.dirname(file) });
  }
  return found;
}

function resolveManifest(packageName: string, appDir: string): string | undefined {
  try {
    return require.resolve(`${packageName}/package.json`, { paths: [appDir] });
  } catch {
    // Listed but not installed, or a package that hides its package.json: not a plugin Strapi would find either.
    return undefined;
  }
}

function readManifest(file: string): PackageManifest | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as PackageManifest;
  } catch (error) {
    throw new ConfigurationError(`invalid JSON: ${(error as Error).message}`, file);
  }
}

/**
 * The root config Strapi v4 puts beside the files of `config/`:
 * `info` (the app's package.json, the whole file, plus `strapi`: the server's
 * version — Tessera reports the Strapi version whose contract it keeps, so
 * plugins comparing versions take the v4 path), `environment` (NODE_ENV),
 * `uuid` and `packageJsonStrapi` (package.json's `strapi` field), `launchedAt`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';

/** The Strapi release whose contract Tessera keeps. */
export const STRAPI_COMPATIBLE_VERSION = '4.26.2';

export function rootConfig(appDir: string): Record<string, unknown> {
  const pkg = appPackage(appDir);
  const strapiField = (typeof pkg.strapi === 'object' && pkg.strapi !== null ? pkg.strapi : {}) as Record<string, unknown>;
  const { uuid, ...packageJsonStrapi } = strapiField;
  return {
    launchedAt: Date.now(),
    environment: process.env.NODE_ENV,
    uuid,
    packageJsonStrapi,
    info: { ...pkg, name: pkg.name ?? path.basename(appDir), version: pkg.version ?? '0.0.0', strapi: STRAPI_COMPATIBLE_VERSION },
  };
}

function appPackage(appDir: string): Record<string, unknown> {
  const file = path.join(appDir, 'package.json');
  let pkg: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    try {
      pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      pkg = {};
    }
  }
  return pkg;
}

export interface AppDirs {
  app: Record<'root' | 'src' | 'api' | 'components' | 'extensions' | 'policies' | 'middlewares' | 'config', string>;
  dist: AppDirs['app'];
  static: { public: string };
}

/** Strapi's `strapi.dirs`; Tessera runs app sources without a build, so `dist` is the app itself. */
export function appDirs(root: string): AppDirs {
  const src = path.join(root, 'src');
  const app = { root, src, api: path.join(src, 'api'), components: path.join(src, 'components'), extensions: path.join(src, 'extensions'), policies: path.join(src, 'policies'), middlewares: path.join(src, 'middlewares'), config: path.join(root, 'config') };
  return { app, dist: app, static: { public: path.join(root, 'public') } };
}

/**
 * Defaults Strapi v4 puts in the config tree that Strapi code reads back (`strapi.config.get('api.rest.prefix')`:
 * rest-cache builds its route paths from it). The app's own value wins.
 *
 * `server.url` is always a string, as Strapi's bootstrap leaves it (`getConfigUrls`): '' when unset, an absolute URL
 * without its trailing slash, a path with one leading slash. Plugins build links on it
 * (`${strapi.config.server.url}/documentation/login`, @strapi/plugin-documentation's redirect).
 */
export function withStrapiDefaults(tree: Record<string, unknown>): void {
  const api = isObject(tree.api) ? tree.api : (tree.api = {});
  const rest = isObject(api.rest) ? api.rest : (api.rest = {});
  rest.prefix ??= '/api';
  const server = isObject(tree.server) ? tree.server : (tree.server = {});
  server.url = normalServerUrl(server.url);
}

function normalServerUrl(configured: unknown): string {
  const url = typeof configured === 'string' ? trimSlashesAndSpaces(configured) : '';
  if (url.startsWith('http')) {
    if (!URL.canParse(url)) throw new ConfigurationError(`server.url "${url}" is not a URL`);
    return trimSlashesAndSpaces(new URL(url).toString());
  }
  return url === '' ? '' : `/${url}`;
}

/** Without leading and trailing slashes and spaces; a loop, where a regular expression on both ends backtracks quadratically. */
function trimSlashesAndSpaces(text: string): string {
  const edge = (char: string) => char === '/' || char === ' ';
  let start = 0;
  let end = text.length;
  while (start < end && edge(text[start])) start++;
  while (end > start && edge(text[end - 1])) end--;
  return text.slice(start, end);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

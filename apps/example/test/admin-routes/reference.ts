/**
 * Strapi 4.26.2's admin routes, as data kept beside the test (the repository's tests do not read ../shared):
 * - strapi-4.26.2-admin-routes.tsv: a copy of shared/reference/strapi4-admin/endpoints-full-surface.tsv (@strapi/admin
 *   with its Enterprise routes, content-manager, upload, i18n, users-permissions, from their route files);
 * - strapi-4.26.2-admin-routes-more.tsv: the admin plugins that list leaves out (content-type-builder and email, listed
 *   by the peer; content-releases, Enterprise only, from its package);
 * - strapi-4.26.2-ce-mounted.tsv: what a community-edition peer mounts (scripts/strapi-peer/list-admin-routes.js),
 *   to check the two lists above against.
 */
import fs from 'node:fs';
import path from 'node:path';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface StrapiRoute {
  method: HttpMethod;
  /** As Strapi declares it (parameter names as the reference list writes them). */
  path: string;
  /** The plugin that declares it: `admin`, `content-manager`, … */
  plugin: string;
  /** `ee`: registered only with an Enterprise licence. */
  edition: 'ce' | 'ee';
}

const DIR = __dirname;
export const REFERENCE_FILES = ['strapi-4.26.2-admin-routes.tsv', 'strapi-4.26.2-admin-routes-more.tsv'];
export const CE_MOUNTED_FILE = 'strapi-4.26.2-ce-mounted.tsv';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];
const isMethod = (value: string): value is HttpMethod => (METHODS as readonly string[]).includes(value);

function rows(file: string): string[][] {
  return fs
    .readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}

function method(value: string, file: string): HttpMethod {
  if (!isMethod(value)) throw new Error(`${file}: unknown method ${value}`);
  return value;
}

/** Every admin route of Strapi 4.26.2 and its plugins, in the reference lists' order. */
export function strapiAdminRoutes(): StrapiRoute[] {
  return REFERENCE_FILES.flatMap((file) =>
    rows(file).map(([group, verb, route]) => {
      const edition = group.endsWith('-ee') ? 'ee' : 'ce';
      return { method: method(verb, file), path: route, plugin: edition === 'ee' ? group.slice(0, -3) : group, edition };
    }),
  );
}

/** `[method, path]` of what the community-edition peer mounts. */
export function ceMounted(): Array<[HttpMethod, string]> {
  return rows(CE_MOUNTED_FILE).map(([verb, route]) => [method(verb, CE_MOUNTED_FILE), route]);
}

/**
 * One key per route whatever its parameters are named (`/roles/:id` and `/roles/:role`, `:uid` and `:model` are the
 * same route) and a regular-expression group counted as a parameter.
 */
export function routeKey(verb: string, route: string): string {
  return `${verb} ${route.replace(/:\w+\*?/g, ':').replace(/\([^)]*\)/g, ':')}`;
}

/**
 * Strapi v4's plugin extensions, applied in Strapi's order before the plugin registers:
 * 1. `src/extensions/<plugin>/content-types/<name>/schema.json` replaces the top-level keys
 *    of that plugin content type's schema (Strapi merges shallowly: an `attributes` given
 *    there is the whole attribute list). The common use is adding fields to
 *    users-permissions' `user`. Attributes Tessera adds for its own work (`tesseraAttributes`)
 *    are kept: the extension, written for Strapi, cannot list them.
 * 2. `src/extensions/<plugin>/strapi-server.{js,ts}` exports `(plugin) => plugin`, and may
 *    replace or add controllers, services, routes, policies or content types, and add, replace or
 *    wrap one action of a controller or method of a service (extensible-modules.ts), for every
 *    plugin, Tessera's own included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { KernelContext, Plugin, PluginContentType, PluginRoutes, RouteConfig, RouterDefinition } from '../types';
import { ExtensibleModules } from './extensible-modules';
import { findModule, loadModule } from '../loader/load-module';
import { readJson } from '../loader/load-app';
import { copyPlain } from '../loader/content-type';

export function applyExtensions(appDir: string, plugin: Plugin, context: () => KernelContext): Plugin {
  const dir = path.join(appDir, 'src', 'extensions', plugin.name);
  const own = ownMaps(plugin);
  if (!fs.existsSync(dir)) return own;
  const withSchemas = { ...own, contentTypes: extendedContentTypes(dir, plugin.contentTypes) };
  const file = findModule(path.join(dir, 'strapi-server'));
  if (!file) return withSchemas;
  const extend = loadModule(file);
  if (typeof extend !== 'function') throw new ConfigurationError('a plugin extension must export (plugin) => plugin', file);
  const modules = new ExtensibleModules(context);
  // Every map is there, empty when the plugin has none, as Strapi's plugin loader gives them (`plugin.policies.x = …`).
  const shown: Plugin = {
    ...withSchemas,
    controllers: modules.show(withSchemas.controllers ?? {}, true),
    services: modules.show(withSchemas.services ?? {}),
    policies: withSchemas.policies ?? {},
    middlewares: withSchemas.middlewares ?? {},
    contentTypes: withSchemas.contentTypes ?? {},
  };
  const extended = (extend as (plugin: Plugin) => Plugin | undefined)(shown) ?? shown;
  return { ...extended, controllers: modules.settle(extended.controllers), services: modules.settle(extended.services), name: plugin.name };
}

/**
 * The plugin with its own copies of what an extension or app code mutates in place (`plugin.services.x = ...`,
 * `plugin.routes['content-api'].routes.push(...)` as Strapi's documentation shows, or a route's
 * `config.middlewares.push(...)` from an app's register, as the Epic Next.js tutorial does through
 * `strapi.plugins[name].routes`): a plugin object is a module shared by every app of the process, and one app's
 * changes must not reach the next app. Route definitions are data and copied whole (functions kept).
 */
function ownMaps(plugin: Plugin): Plugin {
  const copy = <T extends object>(map: T | undefined): T | undefined => (map ? { ...map } : map);
  return {
    ...plugin,
    services: copy(plugin.services),
    controllers: copy(plugin.controllers),
    policies: copy(plugin.policies),
    middlewares: copy(plugin.middlewares),
    routes: ownRoutes(plugin.routes),
  };
}

function ownRoutes(routes: PluginRoutes | undefined): PluginRoutes | undefined {
  if (!routes) return routes;
  if (Array.isArray(routes)) return routes.map(copyPlain);
  const result: Record<string, RouterDefinition | RouteConfig[]> = {};
  for (const [name, router] of Object.entries(routes)) result[name] = Array.isArray(router) ? router.map(copyPlain) : copyPlain(router);
  return result;
}

function extendedContentTypes(dir: string, contentTypes: Plugin['contentTypes']): Plugin['contentTypes'] {
  const extensionsDir = path.join(dir, 'content-types');
  // An extension for a content type the plugin does not have is a mistake (a typo in the folder name): say so.
  for (const name of fs.existsSync(extensionsDir) ? fs.readdirSync(extensionsDir) : []) {
    const file = path.join(extensionsDir, name, 'schema.json');
    if (fs.existsSync(file) && !contentTypes?.[name]) throw new ConfigurationError(`plugin ${path.basename(dir)} has no content type "${name}" to extend`, file);
  }
  if (!contentTypes) return contentTypes;
  const result: Record<string, PluginContentType> = {};
  for (const [name, declared] of Object.entries(contentTypes)) {
    const file = path.join(dir, 'content-types', name, 'schema.json');
    if (!fs.existsSync(file) || !declared || typeof declared !== 'object') {
      result[name] = declared;
      continue;
    }
    const extension = readJson(file);
    if (typeof extension !== 'object' || extension === null || Array.isArray(extension)) throw new ConfigurationError('a content-type extension must be a JSON object', file);
    result[name] = { ...declared, schema: { ...(declared.schema as object), ...extension, ...keptAttributes(declared, extension as Record<string, unknown>) } };
  }
  return result;
}

/** The extension's `attributes` with the plugin's Tessera-only attributes it cannot know of added back; {} when it has none. */
function keptAttributes(declared: PluginContentType, extension: Record<string, unknown>): { attributes?: Record<string, unknown> } {
  const replaced = extension.attributes;
  const own = (declared.schema as { attributes?: Record<string, unknown> }).attributes ?? {};
  if (!replaced || typeof replaced !== 'object' || !declared.tesseraAttributes?.length) return {};
  const kept = Object.fromEntries(declared.tesseraAttributes.filter((name) => name in own).map((name) => [name, own[name]]));
  return { attributes: { ...(replaced as Record<string, unknown>), ...kept } };
}

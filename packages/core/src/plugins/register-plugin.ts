/**
 * Puts a plugin's server side into the app's registries, each entry under
 * `plugin::<name>.<key>`: config (default ← config/plugins.ts, then the
 * validator), content types and components (the same schema loader as app
 * files), services, controllers, routes, policies and middlewares. Plugins
 * contribute only through these registries.
 */
import { ConfigurationError } from '@tessera/errors';
import type { LifecycleHandlers } from '@tessera/database';
import type { App } from '../app-type';
import { deepMerge, type ConfigTree } from '../config/load-config';
import { buildComponent, buildContentType } from '../loader/content-type';
import type { Plugin, PluginRoutes, RouteConfig, RouterDefinition } from '../types';
import type { PluginSetting } from './resolve-plugins';

export interface RegisteredPlugin {
  /** Lifecycles declared with the plugin's content types, subscribed once the database exists. */
  lifecycles: Array<{ uid: string; handlers: LifecycleHandlers }>;
}

export async function registerPlugin(app: App, plugin: Plugin, setting: PluginSetting): Promise<RegisteredPlugin> {
  const uidOf = (key: string) => `plugin::${plugin.name}.${key}`;
  const source = `plugin "${plugin.name}"`;
  app.config.set(`plugin.${plugin.name}`, await pluginConfig(app, plugin, setting));

  const lifecycles: RegisteredPlugin['lifecycles'] = [];
  // A plugin's schemas are not the app author's to edit: a misspelt key is said, and ignored as Strapi ignores it.
  const warnFor = (place: string) => (message: string) => app.log.warn(`${place}: ${message} (ignored, as Strapi ignores it)`);
  for (const [key, declared] of Object.entries(plugin.contentTypes ?? {})) {
    if (!declared || typeof declared !== 'object' || !('schema' in declared)) {
      throw new ConfigurationError(`content type "${key}" must be declared as { schema }`, source);
    }
    const place = `${source}, content type "${key}"`;
    const contentType = buildContentType(declared.schema, uidOf(key), plugin.name, place, warnFor(place));
    app.contentTypes.add(contentType.uid, contentType);
    if (declared.lifecycles) lifecycles.push({ uid: contentType.uid, handlers: declared.lifecycles });
  }
  for (const [uid, schema] of Object.entries(plugin.components ?? {})) {
    const [category, name] = uid.split('.');
    if (!category || !name) throw new ConfigurationError(`component "${uid}" must be named <category>.<name>`, source);
    const place = `${source}, component "${uid}"`;
    app.components.add(uid, buildComponent(schema, category, name, place, warnFor(place)));
  }
  for (const [key, provider] of Object.entries(plugin.services ?? {})) app.services.add(uidOf(key), provider);
  for (const [key, provider] of Object.entries(plugin.controllers ?? {})) app.controllers.add(uidOf(key), provider);
  for (const [key, policy] of Object.entries(plugin.policies ?? {})) app.policies.add(uidOf(key), policy);
  for (const [key, middleware] of Object.entries(plugin.middlewares ?? {})) app.middlewares.add(uidOf(key), middleware);
  for (const [key, router] of pluginRouters(plugin.name, plugin.routes)) app.routes.add(uidOf(key), router);
  return { lifecycles };
}

/**
 * The plugin's `config.default`, merged with `config/plugins.ts`, then checked by its `validator`. A validator may be
 * async (strapi-plugin-image-optimizer's is): it is awaited, so a rejection stops the boot naming the plugin. Strapi
 * 4.26.2 calls it without awaiting, and its rejection ends the process as an unhandled rejection instead.
 */
async function pluginConfig(app: App, plugin: Plugin, setting: PluginSetting): Promise<ConfigTree> {
  const declared = plugin.config?.default;
  const defaults = (typeof declared === 'function' ? declared({ env: app.env }) : declared) ?? {};
  const merged = deepMerge(defaults, setting.config ?? {});
  try {
    await plugin.config?.validator?.(merged);
  } catch (error) {
    throw new ConfigurationError(`plugin "${plugin.name}" has an invalid config: ${(error as Error).message}`, 'config/plugins');
  }
  return merged;
}

/**
 * Strapi v4's route forms: an array is the plugin's admin routes; an object
 * holds routers by name (`content-api`, `admin`), each an array or
 * `{ type, prefix, routes }`. Routers default to the prefix `/<plugin>`, so
 * content-API routes answer under `/api/<plugin>/…`.
 */
function pluginRouters(name: string, routes: PluginRoutes | undefined): Array<[string, RouterDefinition]> {
  if (routes === undefined) return [];
  const prefix = `/${name}`;
  if (Array.isArray(routes)) return [['admin', { type: 'admin', prefix, routes }]];
  return Object.entries(routes).map(([key, router]) => {
    const definition: RouterDefinition = Array.isArray(router) ? { routes: router as RouteConfig[] } : router;
    const type = definition.type ?? (key === 'content-api' ? 'content-api' : 'admin');
    return [key, { ...definition, type, prefix: definition.prefix ?? prefix }];
  });
}

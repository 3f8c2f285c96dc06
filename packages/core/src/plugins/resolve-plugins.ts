/**
 * Which plugins an app runs, and in what order, as Strapi v4 decides it:
 * `rest` and every plugin installed in the app (discover-plugins.ts) are on by
 * default; `config/plugins.ts` turns plugins on or off in Strapi v4's form
 * (`{ '<name>': { enabled, resolve, config } }`). A plugin is found at
 * `resolve` (a folder relative to the app, or a package), as the installed
 * package, or as the package `@tessera/plugin-<name>`. An installed package's
 * server side is its `strapi-server.js` (one without is admin-only and skipped,
 * as Strapi skips it); elsewhere also `server/index.{ts,js}` or the package's
 * main module. The server side is an object or a function `({ strapi }) => object`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { App } from '../app-type';
import type { Plugin, PluginServer, RouteConfig } from '../types';
import { findModule, loadModule } from '../loader/load-module';
import { installedPlugins, type InstalledPlugin } from './discover-plugins';
import { DEFAULT_PLUGINS } from './default-plugins';


export interface PluginSetting {
  enabled?: boolean;
  resolve?: string;
  config?: Record<string, unknown>;
}

/** The `config/plugins.ts` entry of each plugin (a bare boolean means `{ enabled }`). */
export function pluginSettings(app: App): Map<string, PluginSetting> {
  const raw = (app.config.plugins ?? {}) as Record<string, PluginSetting | boolean>;
  const settings = new Map<string, PluginSetting>();
  for (const [name, setting] of Object.entries(raw)) {
    if (typeof setting === 'boolean') settings.set(name, { enabled: setting });
    else if (typeof setting === 'object' && setting !== null) settings.set(name, setting);
    else throw new ConfigurationError(`plugins.${name} must be an object or a boolean`, 'config/plugins');
  }
  return settings;
}

/**
 * The plugins, in dependency order, and `codeFolders`: the folders of the Strapi plugin code loaded here (installed
 * packages, and paths `config/plugins` resolves to; not Tessera's own packages), whose files the boot reads once for
 * what they use (strapi/reads-request-context.ts).
 */
export function resolvePlugins(app: App, given: Plugin[]): { plugins: Plugin[]; codeFolders: string[] } {
  const settings = pluginSettings(app);
  const installed = installedPlugins(app.dir);
  const byName = new Map<string, Plugin>();
  const codeFolders: string[] = [];
  for (const plugin of given) byName.set(plugin.name, plugin);
  const wanted = new Set([...DEFAULT_PLUGINS.map((plugin) => plugin.name), ...installed.keys()]);
  for (const [name, setting] of settings) {
    if (setting.enabled === false) wanted.delete(name);
    else wanted.add(name);
  }
  for (const name of byName.keys()) if (settings.get(name)?.enabled === false) byName.delete(name);
  for (const name of wanted) {
    if (byName.has(name)) continue;
    const setting = settings.get(name) ?? {};
    const plugin = loadPlugin(app, name, setting, installed.get(name));
    if (!plugin) continue;
    byName.set(name, plugin);
    const folder = codeFolder(app.dir, setting, installed.get(name));
    if (folder) codeFolders.push(folder);
  }
  return { plugins: dependencyOrder([...byName.values()]), codeFolders };
}

/** Where a plugin's own code lives: its installed package, or the path `resolve` names; undefined for a package name. */
function codeFolder(appDir: string, setting: PluginSetting, installed: InstalledPlugin | undefined): string | undefined {
  if (setting.resolve === undefined) return installed?.dir;
  if (!(setting.resolve.startsWith('.') || path.isAbsolute(setting.resolve))) return undefined;
  const target = path.resolve(appDir, setting.resolve);
  // A folder, or a file named with or without its extension (`./plugins/x/strapi-server`).
  return fs.existsSync(target) && fs.statSync(target).isDirectory() ? target : path.dirname(target);
}

/** The plugin's server side, or undefined for an installed package that has none (admin-only). */
function loadPlugin(app: App, name: string, setting: PluginSetting, installed: InstalledPlugin | undefined): Plugin | undefined {
  const entry = locatePluginEntry(app.dir, name, setting, installed);
  if (!entry) {
    app.log.debug(`plugin "${name}" (${installed?.packageName}) has no strapi-server.js: nothing to run on the server, skipped (as Strapi skips it)`);
    return undefined;
  }
  let loaded: unknown;
  try {
    loaded = loadModule(entry);
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`plugin "${name}" cannot be loaded: ${(error as Error).message}`, entry);
  }
  // Strapi calls a function export with `{ env }`; Tessera's plugins take `{ strapi, app }`.
  const server = (typeof loaded === 'function' ? loaded({ strapi: app, app, env: app.env }) : loaded) as PluginServer & Partial<Plugin>;
  if (!server || typeof server !== 'object') throw new ConfigurationError(`plugin "${name}" must export its server side as an object or a function returning one`, entry);
  // The name the app gives a plugin (its key in config/plugins) is its name, as in Strapi.
  return { ...server, name };
}

/** The file holding a plugin's server side (undefined: an installed package without one). */
function locatePluginEntry(appDir: string, name: string, setting: PluginSetting, installed: InstalledPlugin | undefined): string | undefined {
  if (setting.resolve === undefined && installed?.dir) return findModule(path.join(installed.dir, 'strapi-server'));
  const target = setting.resolve ?? installed?.builtIn ?? `@tessera/plugin-${name}`;
  const isPath = target.startsWith('.') || path.isAbsolute(target);
  if (isPath) {
    const dir = path.resolve(appDir, target);
    const entry = fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? serverEntryIn(dir) : findModule(dir.replace(/\.(js|ts|cjs)$/, '')) ?? (fs.existsSync(dir) ? dir : undefined);
    if (entry) return entry;
    throw new ConfigurationError(`plugin "${name}": ${target} has no strapi-server.js|ts, server/index.ts or package main`, 'config/plugins');
  }
  let packageJson: string;
  try {
    packageJson = require.resolve(`${target}/package.json`, { paths: [appDir, __dirname] });
  } catch {
    throw new ConfigurationError(`plugin "${name}" is enabled but ${target} cannot be found (npm install it, or set plugins.${name}.resolve)`, 'config/plugins');
  }
  const entry = serverEntryIn(path.dirname(packageJson));
  if (!entry) throw new ConfigurationError(`plugin "${name}": package ${target} has no strapi-server.js, server/index or main`, packageJson);
  return entry;
}

function serverEntryIn(dir: string): string | undefined {
  const conventional = findModule(path.join(dir, 'strapi-server')) ?? findModule(path.join(dir, 'server', 'index'));
  if (conventional) return conventional;
  const manifest = path.join(dir, 'package.json');
  if (fs.existsSync(manifest)) {
    const main = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { main?: string }).main ?? 'index.js';
    const file = path.resolve(dir, main);
    return fs.existsSync(file) ? file : findModule(file.replace(/\.(js|ts|cjs)$/, ''));
  }
  return findModule(path.join(dir, 'index'));
}

/** Dependencies first; a missing required dependency or a cycle stops the boot. */
export function dependencyOrder(plugins: Plugin[]): Plugin[] {
  const byName = new Map(plugins.map((plugin) => [plugin.name, plugin]));
  const ordered: Plugin[] = [];
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (plugin: Plugin, chain: string[]) => {
    if (done.has(plugin.name)) return;
    if (visiting.has(plugin.name)) throw new ConfigurationError(`plugins depend on each other in a circle: ${[...chain, plugin.name].join(' → ')}`);
    visiting.add(plugin.name);
    for (const dependency of plugin.dependencies ?? []) {
      const required = byName.get(dependency);
      if (!required) throw new ConfigurationError(`plugin "${plugin.name}" needs plugin "${dependency}", which is not enabled`);
      visit(required, [...chain, plugin.name]);
    }
    for (const dependency of plugin.optionalDependencies ?? []) {
      const optional = byName.get(dependency);
      if (optional) visit(optional, [...chain, plugin.name]);
    }
    visiting.delete(plugin.name);
    done.add(plugin.name);
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

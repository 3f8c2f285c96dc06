/**
 * Which plugins an app runs, in dependency order. `rest` is on by default;
 * `config/plugins.ts` turns plugins on or off (`{ graphql: { enabled: true,
 * config: {...} } }`) and a plugin is found as the package
 * `@tessera/plugin-<name>` (or at `resolve`, relative to the app).
 */
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { App } from './app';
import type { Plugin } from './types';
import { loadModule } from './loader/load-module';

const DEFAULT_PLUGINS = ['rest'];

interface PluginSetting {
  enabled?: boolean;
  resolve?: string;
  config?: Record<string, unknown>;
}

export function resolvePlugins(app: App, given: Plugin[]): Plugin[] {
  const settings = (app.config.plugins ?? {}) as Record<string, PluginSetting | boolean>;
  const byName = new Map<string, Plugin>();
  for (const plugin of given) byName.set(plugin.name, plugin);
  const wanted = new Set(DEFAULT_PLUGINS);
  for (const [name, setting] of Object.entries(settings)) {
    const enabled = typeof setting === 'boolean' ? setting : setting.enabled !== false;
    if (enabled) wanted.add(name);
    else wanted.delete(name);
  }
  for (const name of wanted) {
    if (byName.has(name)) continue;
    const setting = settings[name];
    byName.set(name, loadPlugin(app, name, typeof setting === 'object' ? setting : {}));
  }
  return dependencyOrder([...byName.values()]);
}

function loadPlugin(app: App, name: string, setting: PluginSetting): Plugin {
  const target = setting.resolve ? path.resolve(app.dir, setting.resolve) : `@tessera/plugin-${name}`;
  let located: string;
  try {
    located = require.resolve(target, { paths: [app.dir, __dirname] });
  } catch {
    throw new ConfigurationError(`plugin "${name}" is enabled but ${target} cannot be found (npm install it, or set plugins.${name}.resolve)`, 'config/plugins');
  }
  const loaded = loadModule(located) as Plugin | ((context: { app: App }) => Plugin);
  const plugin = typeof loaded === 'function' ? loaded({ app }) : loaded;
  if (!plugin || typeof plugin.name !== 'string') throw new ConfigurationError(`plugin "${name}" does not export { name, register, bootstrap }`, located);
  return plugin;
}

/** Dependencies first; a missing or circular dependency stops the boot. */
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
    visiting.delete(plugin.name);
    done.add(plugin.name);
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

/**
 * Strapi v4's plugin extensions: `src/extensions/<plugin>/strapi-server.{js,ts}`
 * exports `(plugin) => plugin`, and may replace or add controllers, services,
 * routes or content types before the plugin registers. The common use is
 * overriding a users-permissions controller without forking the plugin.
 */
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { Plugin } from '../types';
import { findModule, loadModule } from '../loader/load-module';

export function applyExtensions(appDir: string, plugin: Plugin): Plugin {
  const file = findModule(path.join(appDir, 'src', 'extensions', plugin.name, 'strapi-server'));
  if (!file) return plugin;
  const extend = loadModule(file);
  if (typeof extend !== 'function') throw new ConfigurationError('a plugin extension must export (plugin) => plugin', file);
  const extended = (extend as (plugin: Plugin) => Plugin | undefined)({ ...plugin }) ?? plugin;
  return { ...extended, name: plugin.name };
}

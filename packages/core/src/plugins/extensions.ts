/**
 * Strapi v4's plugin extensions: `src/extensions/<plugin>/strapi-server.{js,ts}`
 * exports `(plugin) => plugin`, and may replace or add controllers, services,
 * routes or content types before the plugin registers. The common use is
 * overriding a users-permissions controller without forking the plugin.
 *
 * `src/extensions/<plugin>/content-types/<name>/schema.json` replaces the
 * schema of the plugin's content type `<name>` (as Strapi v4 loads it, before
 * `strapi-server`): the usual way to add fields and relations to the
 * users-permissions user (FoodAdvisor's `job`, `picture`, `reviews`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { Plugin } from '../types';
import { findModule, loadModule } from '../loader/load-module';

export function applyExtensions(appDir: string, given: Plugin): Plugin {
  const plugin = withExtendedSchemas(appDir, given);
  const file = findModule(path.join(appDir, 'src', 'extensions', plugin.name, 'strapi-server'));
  if (!file) return plugin;
  const extend = loadModule(file);
  if (typeof extend !== 'function') throw new ConfigurationError('a plugin extension must export (plugin) => plugin', file);
  const extended = (extend as (plugin: Plugin) => Plugin | undefined)({ ...plugin }) ?? plugin;
  return { ...extended, name: plugin.name };
}

function withExtendedSchemas(appDir: string, plugin: Plugin): Plugin {
  const dir = path.join(appDir, 'src', 'extensions', plugin.name, 'content-types');
  if (!plugin.contentTypes || !fs.existsSync(dir)) return plugin;
  const contentTypes = { ...plugin.contentTypes };
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name, 'schema.json');
    if (!fs.existsSync(file)) continue;
    if (!contentTypes[name]) throw new ConfigurationError(`plugin ${plugin.name} has no content type "${name}" to extend`, file);
    let schema: unknown;
    try {
      schema = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigurationError(`invalid JSON: ${(error as Error).message}`, file);
    }
    contentTypes[name] = { ...contentTypes[name], schema: schema as NonNullable<Plugin['contentTypes']>[string]['schema'] };
  }
  return { ...plugin, contentTypes };
}

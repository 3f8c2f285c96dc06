/**
 * How a policy or middleware named in a config is found, for REST routes and
 * GraphQL resolvers alike. One rule, Strapi v4's (`@strapi/utils`' policy
 * resolution, which routes and resolversConfig share):
 *   - a qualified name (`global::x`, `api::a.x`, `plugin::p.x`) is that entry;
 *   - a bare name belongs to the config's owner: `api::a.x` on a router of
 *     API `a`, `plugin::p.x` on a router of plugin `p`;
 *   - a bare name with no owner (GraphQL's resolversConfig, a router added
 *     under another namespace) names nothing: Strapi fails to boot with
 *     "Could not find policy", and so does Tessera, with the name to write.
 * Every reference is resolved once, when routes are mounted or the schema is
 * built, never per request.
 */
import { ConfigurationError } from '@tessera/errors';
import type { Registry } from './registry';

/** `api::article` or `plugin::users-permissions`: whose bare names a config may use. */
export type ReferenceOwner = string | undefined;

/** The registry key `name` means when written in a config of `owner`; undefined for a bare name with no owner. */
export function qualifiedName(name: string, owner: ReferenceOwner): string | undefined {
  if (name.includes('::')) return name;
  if (owner === undefined || !(owner.startsWith('api::') || owner.startsWith('plugin::'))) return undefined;
  return `${owner}.${name}`;
}

/** The entry of `registry` that `name` means, or a ConfigurationError saying where it was named. */
export function findReferenced<T>(registry: Registry<T>, name: string, owner: ReferenceOwner, where: string): T {
  const key = qualifiedName(name, owner);
  const entry = key === undefined ? undefined : registry.find(key);
  if (entry !== undefined) return entry;
  const hint = key === undefined ? ` (a bare name has no API or plugin here: write global::${name}, api::<api>.${name} or plugin::<plugin>.${name})` : '';
  throw new ConfigurationError(`${where}: unknown ${registry.kind} "${name}"${hint}`);
}

/** A reference's name and config: `'x'`, or `{ name, config }` (`options`, the older key, as Strapi's resolversConfig reads it). */
export function namedReference(reference: string | { name: string; config?: unknown; options?: unknown }): { name: string; config: unknown } {
  if (typeof reference === 'string') return { name: reference, config: {} };
  return { name: reference.name, config: reference.config ?? reference.options ?? {} };
}

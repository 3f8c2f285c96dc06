/**
 * Admin permission conditions (Strapi 4.26.2's condition provider): a
 * condition is evaluated once per admin and request against the signed-in
 * user, and answers `true` (no restriction), `false` (the permission does not
 * apply) or a query in Strapi's condition syntax (sift/Mongo-like: dotted
 * paths, `$elemMatch`), which `toFilters` turns into the Strapi filters the
 * entity service and `db.query` take. The registry is the kernel's
 * `strapi.admin.services.permission.conditionProvider` (core strapi/admin.ts),
 * where plugins add theirs; Strapi's own two are here.
 */
import type { AdminConditionDefinition } from '@tessera/core';

/** Strapi filters (`{ createdBy: { id: { $eq: 1 } } }`), as `db.query(...).findMany({ where })` takes them. */
export type Filters = Record<string, unknown>;

/** Strapi's two default conditions (`@strapi/admin` config/admin-conditions), registered by the admin plugin. */
export const ADMIN_CONDITIONS: AdminConditionDefinition[] = [
  {
    displayName: 'Is creator',
    name: 'is-creator',
    plugin: 'admin',
    handler: (user) => ({ 'createdBy.id': user.id }),
  },
  {
    displayName: 'Has same role as creator',
    name: 'has-same-role-as-creator',
    plugin: 'admin',
    handler: (user) => ({ 'createdBy.roles': { $elemMatch: { id: { $in: user.roles.map((role) => role.id) } } } }),
  },
];

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * A condition's query in Strapi filter syntax: `'createdBy.id': 1` → `{ createdBy: { id: { $eq: 1 } } }`;
 * `$elemMatch` on a to-many relation is a filter on that relation (any related entry matches);
 * `$or`/`$and`/`$not` lists keep their shape.
 */
export function toFilters(query: Filters): Filters {
  const out: Filters = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === '$or' || key === '$and') {
      out[key] = (Array.isArray(value) ? value : [value]).filter(isPlainObject).map(toFilters);
      continue;
    }
    if (key === '$not') {
      out[key] = isPlainObject(value) ? toFilters(value) : value;
      continue;
    }
    const path = key.split('.');
    merge(out, path, fieldFilter(value));
  }
  return out;
}

/** What one path is compared with: operators kept, `$elemMatch` unwrapped, a bare value an `$eq`. */
function fieldFilter(value: unknown): unknown {
  if (!isPlainObject(value)) return { $eq: value };
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$elemMatch' && isPlainObject(value.$elemMatch)) return toFilters(value.$elemMatch);
  if (keys.every((key) => key.startsWith('$'))) return value;
  return toFilters(value);
}

function merge(target: Filters, path: string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(at[key])) at[key] = {};
    at = at[key] as Filters;
  }
  const last = path[path.length - 1];
  const existing = at[last];
  at[last] = isPlainObject(existing) && isPlainObject(value) ? { ...existing, ...value } : value;
}

/**
 * What Strapi's query engine adds to the columns a write is given: schema defaults and timestamps on a create, the
 * update time on an update. Values the caller gave win.
 */
import type { ColumnField, EntityMetadata } from './metadata/metadata';

/** Strapi's query engine stamps new rows. */
export function withTimestamps(entity: EntityMetadata, columns: Record<string, unknown>): Record<string, unknown> {
  if (!entity.columns.has('createdAt')) return columns;
  const now = new Date();
  return { createdAt: now, updatedAt: now, ...columns };
}

/** A create's attributes left out get their schema `default` (`defaulted`: the columns that declare one), as Strapi's `db.query().create` fills them. */
export function withDefaults(defaulted: readonly ColumnField[], columns: Record<string, unknown>): Record<string, unknown> {
  const missing = defaulted.filter((field) => columns[field.name] === undefined);
  if (missing.length === 0) return columns;
  const filled = { ...columns };
  for (const { name, attribute } of missing) filled[name] = typeof attribute.default === 'function' ? (attribute.default as () => unknown)() : attribute.default;
  return filled;
}

export function withUpdatedAt(entity: EntityMetadata, columns: Record<string, unknown>): Record<string, unknown> {
  return entity.columns.has('updatedAt') && columns.updatedAt === undefined ? { ...columns, updatedAt: new Date() } : columns;
}

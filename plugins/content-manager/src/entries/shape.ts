/**
 * An entry as the content manager answers it (Strapi's `permissionChecker.sanitizeOutput`): its own fields in
 * column order, then its populated attributes in schema order, then `createdBy`/`updatedBy` (authors.ts); private
 * attributes never, at any depth; with a field permission, only the permitted fields (dotted paths into components).
 */
import type { Entity, EntityMetadata, Metadata } from '@tessera/database';
import { linksOf } from './populate';

type Value = Record<string, unknown>;

/** Every column but the authorship stamps, which answers carry as admin users (authors.ts). */
const STAMPS = new Set(['createdBy', 'updatedBy']);

export function shapeEntry(entry: Value, entity: EntityMetadata, metadata: Metadata, fields: string[] | null = null, prefix = ''): Value {
  const out: Value = {};
  const permitted = (name: string): boolean => {
    if (fields === null || name === 'id' || (prefix === '' && isTimestamp(name))) return true;
    const path = prefix + name;
    return fields.some((field) => field === path || field.startsWith(`${path}.`));
  };
  for (const column of entity.columns.values()) {
    if (column.private || STAMPS.has(column.name) || !(column.name in entry) || !permitted(column.name)) continue;
    out[column.name] = entry[column.name];
  }
  if ('__component' in entry && entity.kind === 'component') out.__component = entry.__component;
  for (const [name, link] of linksOf(entity)) {
    if (!(name in entry) || !permitted(name)) continue;
    const value = entry[name];
    if (value === null || value === undefined || link.kind === 'media') {
      out[name] = value ?? null;
    } else if (link.kind === 'relation') {
      const target = metadata.get(link.target);
      out[name] = isCount(value) || !target ? value : mapValue(value, (item) => shapeEntry(item, target, metadata));
    } else {
      out[name] = mapValue(value, (item) => {
        const uid = link.kind === 'component' ? link.components[0] : String(item.__component);
        const component = metadata.get(uid);
        return component ? shapeEntry(item, component, metadata, fields, `${prefix}${name}.`) : item;
      });
    }
  }
  return out;
}

function isTimestamp(name: string): boolean {
  return name === 'createdAt' || name === 'updatedAt' || name === 'publishedAt';
}

function isCount(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && 'count' in value;
}

function mapValue(value: unknown, each: (item: Value) => Value): unknown {
  if (Array.isArray(value)) return value.map((item) => each(item as Value));
  return each(value as Value);
}


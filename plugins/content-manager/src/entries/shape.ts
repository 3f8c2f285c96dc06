/**
 * An entry as the content manager answers it (Strapi's `permissionChecker.sanitizeOutput`): its own fields in
 * column order, then its populated attributes in schema order, then `createdBy`/`updatedBy` (authors.ts), then the
 * relations a plugin added hidden from the content manager (i18n's `localizations`, after the authors as Strapi's
 * attribute order has them); private attributes too (private is for the content API), but never, at any depth, what
 * the schema hides from the admin or a password (hidden-fields.ts). A file is answered as the media library answers
 * it, its private `folderPath` and `folder` included (Strapi's output sanitizer does not enter media); with a field
 * permission, only the permitted fields (dotted paths into components).
 */
import { FILE_UID, type EntityMetadata, type Metadata } from '@tessera/database';
import { linksOf } from './populate';
import type { HiddenFields } from './hidden-fields';

type Value = Record<string, unknown>;

/** Every column but the authorship stamps, which answers carry as admin users (authors.ts). */
const STAMPS = new Set(['createdBy', 'updatedBy']);

export function shapeEntry(entry: Value, entity: EntityMetadata, metadata: Metadata, hidden: HiddenFields, fields: string[] | null = null, prefix = ''): Value {
  const out: Value = {};
  const hiddenHere = hidden(entity.uid);
  const permitted = (name: string): boolean => {
    if (fields === null || name === 'id' || (prefix === '' && isTimestamp(name)) || invisible(entity, name)) return true;
    const path = prefix + name;
    return fields.some((field) => field === path || field.startsWith(`${path}.`));
  };
  for (const column of entity.columns.values()) {
    if (column.type === 'password' || hiddenHere.has(column.name) || STAMPS.has(column.name) || !(column.name in entry) || !permitted(column.name)) continue;
    out[column.name] = entry[column.name];
  }
  if ('__component' in entry && entity.kind === 'component') out.__component = entry.__component;
  for (const [name, link] of linksOf(entity)) {
    if (hiddenHere.has(name) || !(name in entry) || !permitted(name)) continue;
    const value = entry[name];
    if (value === null || value === undefined) {
      out[name] = value ?? null;
    } else if (link.kind === 'media') {
      const files = metadata.get(FILE_UID);
      out[name] = files ? mapValue(value, (item) => shapeFile(item, files, metadata, hidden)) : value;
    } else if (link.kind === 'relation') {
      const target = metadata.get(link.target);
      out[name] = isCount(value) || !target ? value : mapValue(value, (item) => shapeEntry(item, target, metadata, hidden));
    } else {
      out[name] = mapValue(value, (item) => {
        const uid = link.kind === 'component' ? link.components[0] : String(item.__component);
        const component = metadata.get(uid);
        return component ? shapeEntry(item, component, metadata, hidden, fields, `${prefix}${name}.`) : item;
      });
    }
  }
  return out;
}

/** A file as the media library answers it: every column (`folderPath` too), then its folder when read, without authors. */
function shapeFile(file: Value, files: EntityMetadata, metadata: Metadata, hidden: HiddenFields): Value {
  const out: Value = {};
  for (const column of files.columns.values()) if (!STAMPS.has(column.name) && column.name in file) out[column.name] = file[column.name];
  const link = files.links.get('folder');
  const folders = link?.kind === 'relation' ? metadata.get(link.target) : undefined;
  if ('folder' in file) out.folder = file.folder && folders ? shapeEntry(file.folder as Value, folders, metadata, hidden) : (file.folder ?? null);
  return out;
}

/** An attribute a plugin hides from the content manager (i18n's `locale`, `localizations`): no field permission names it, Strapi answers it. */
function invisible(entity: EntityMetadata, name: string): boolean {
  const attribute = entity.columns.get(name)?.attribute ?? (entity.links.get(name) as { attribute?: { visible?: unknown } } | undefined)?.attribute;
  return (attribute as { visible?: unknown } | undefined)?.visible === false;
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


/**
 * Tessera's index options in `schema.json` (Strapi ignores them):
 * - `"pluginOptions": { "tessera": { "search": true } }` on a text attribute,
 *   or `"pluginOptions": { "tessera": { "search": ["title", "summary"] } }` on
 *   the type: substring search on those attributes is index-backed (SQLite:
 *   an FTS5 trigram table `<table>_search`; PostgreSQL: pg_trgm GIN indexes);
 * - `"index": true` on an attribute, or `"pluginOptions": { "tessera": {
 *   "indexes": [["publishedAt", "views"]] } }` on the type: b-tree indexes
 *   (composite ones in the order given) for sorts and filters.
 */
import { ConfigurationError } from '@tessera/errors';
import type { ContentType } from '../model/types';
import type { EntityMetadata } from './entity-metadata';

const SEARCHABLE_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

interface TesseraTypeOptions {
  search?: unknown;
  indexes?: unknown;
}

export function searchTableName(tableName: string): string {
  return `${tableName}_search`;
}

/** SQLite: the FTS5 vocabulary table over a search table (each trigram's rows and columns, by trigram), which 2-character runs are looked up in. */
export function searchTermsTableName(searchTable: string): string {
  return `${searchTable}_terms`;
}

/** SQLite: the FTS5 vocabulary table of each trigram's totals (rows and places), which says whether a lookup pays. */
export function searchCountsTableName(searchTable: string): string {
  return `${searchTable}_counts`;
}

/** Fills `entity.search` and `entity.indexes` from the type's options. */
export function applyIndexOptions(entity: EntityMetadata, contentType: ContentType): void {
  const options = ((contentType.pluginOptions ?? {}) as { tessera?: TesseraTypeOptions }).tessera ?? {};
  const source = contentType.source ?? contentType.uid;
  const searched = new Set<string>(Array.isArray(options.search) ? (options.search as string[]) : []);
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    const own = (attribute.pluginOptions as { tessera?: { search?: unknown } } | undefined)?.tessera;
    if (own?.search === true) searched.add(name);
    if ((attribute as { index?: unknown }).index === true) entity.indexes.push([columnOf(entity, name, source)]);
  }
  const searchColumns: string[] = [];
  for (const name of searched) {
    const field = entity.columns.get(name);
    if (!field || !SEARCHABLE_TYPES.has(field.type)) throw new ConfigurationError(`search index on "${name}": only text attributes can be searched`, source);
    field.searchTable = searchTableName(entity.tableName);
    searchColumns.push(field.column);
  }
  if (searchColumns.length > 0) entity.search = { table: searchTableName(entity.tableName), columns: searchColumns };
  if (options.indexes !== undefined) {
    if (!Array.isArray(options.indexes)) throw new ConfigurationError('pluginOptions.tessera.indexes must be a list of attribute-name lists', source);
    for (const index of options.indexes) {
      const names = Array.isArray(index) ? index : [index];
      entity.indexes.push(names.map((name) => columnOf(entity, String(name), source)));
    }
  }
}

function columnOf(entity: EntityMetadata, name: string, source: string): string {
  const field = entity.columns.get(name);
  if (!field) throw new ConfigurationError(`index on "${name}": no such column attribute`, source);
  return field.column;
}

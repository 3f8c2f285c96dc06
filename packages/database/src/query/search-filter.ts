/**
 * `_q`, Strapi v4's search: a case-insensitive "contains" over an entity's
 * text attributes, or'ed, plus equality on its number columns when the term
 * is a number. The content API searches the public columns (and id); server
 * code's query-engine and entity-service calls search every column, private
 * ones too, as Strapi's query builder does (`attribute.searchable: false`
 * opts a column out in both).
 */
import type { ColumnField, EntityMetadata } from '../metadata/metadata';

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMBER_TYPES = new Set(['integer', 'biginteger', 'float', 'decimal']);

export type SearchScope = 'public' | 'server';

export function searchFilter(term: string, entity: EntityMetadata, scope: SearchScope): Record<string, unknown> {
  const columns = (scope === 'public' ? entity.publicColumns : entity.serverColumns).filter((field) => field.attribute.searchable !== false);
  const alternatives: Array<Record<string, unknown>> = columns.filter((field) => TEXT_TYPES.has(field.type)).map((field) => ({ [field.name]: { $containsi: term } }));
  if (/^\d{1,15}$/.test(term)) alternatives.push(...numberColumns(columns, scope).map((field) => ({ [field.name]: { $eq: term } })));
  if (alternatives.length === 0) return { id: { $in: [] } };
  return { $or: alternatives };
}

/** id always; the other number columns for server code, as Strapi's engine adds them for a numeric term. */
function numberColumns(columns: ColumnField[], scope: SearchScope): ColumnField[] {
  return columns.filter((field) => field.name === 'id' || (scope === 'server' && NUMBER_TYPES.has(field.type)));
}

/** `filters` ANDed with the search for `q` (none when `q` is absent or empty). */
export function withSearch(filters: unknown, q: unknown, entity: EntityMetadata, scope: SearchScope): unknown {
  if (q === undefined || q === null || q === '') return filters;
  if (typeof q !== 'string') return filters === undefined ? searchFilter(String(q), entity, scope) : { $and: [filters, searchFilter(String(q), entity, scope)] };
  const search = searchFilter(q, entity, scope);
  return filters === undefined ? search : { $and: [filters, search] };
}

/**
 * A list request's parameters (`page`, `pageSize`, `sort`, `_q`, `filters`, `locale`), kept to what the admin
 * may read (Strapi's `permissionChecker.sanitizedQuery.read`): a sort or filter on a field the schema hides from
 * admins or a password (hidden-fields.ts; private fields are filtered and sorted on), or on a field outside the
 * admin's read permission, is dropped, as Strapi drops it; the rest goes to the entity service, whose
 * compiler refuses a malformed filter with a 400.
 */
import type { EntityMetadata } from '@tessera/database';
import { ValidationError } from '@tessera/errors';

/** Tessera's bound on a list page (the panel offers 10 to 100; Strapi sets none). */
export const MAX_PAGE_SIZE = 1000;

export interface ListQuery {
  page?: string | number;
  pageSize?: string | number;
  sort?: unknown;
  filters?: unknown;
  _q?: unknown;
  locale?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readQuery(query: Record<string, unknown>, entity: EntityMetadata, fields: string[] | null, hidden: ReadonlySet<string>): ListQuery {
  const readable = (name: string): boolean => {
    const column = entity.columns.get(name);
    const link = entity.links.get(name);
    if (name === 'id') return true;
    if ((!column && !link) || hidden.has(name) || column?.type === 'password' || name === 'createdBy' || name === 'updatedBy') return false;
    return fields === null || ['createdAt', 'updatedAt', 'publishedAt'].includes(name) || fields.some((field) => field === name || field.startsWith(`${name}.`));
  };
  const out: ListQuery = {};
  if (typeof query.page === 'string' || typeof query.page === 'number') out.page = query.page;
  if (typeof query.pageSize === 'string' || typeof query.pageSize === 'number') {
    if (Number(query.pageSize) > MAX_PAGE_SIZE) throw ValidationError.forField(['pageSize'], `pageSize must be less than or equal to ${MAX_PAGE_SIZE}`);
    out.pageSize = query.pageSize;
  }
  if (typeof query._q === 'string' && query._q !== '') out._q = query._q;
  if (typeof query.locale === 'string') out.locale = query.locale;
  const sort = sortOf(query.sort, readable);
  if (sort !== undefined) out.sort = sort;
  if (query.filters !== undefined) out.filters = filtersOf(query.filters, readable);
  return out;
}

function sortOf(sort: unknown, readable: (name: string) => boolean): unknown {
  if (sort === undefined) return undefined;
  const list = typeof sort === 'string' ? sort.split(',') : Array.isArray(sort) ? sort : [sort];
  const kept = list.map((item) => (typeof item === 'string' ? dottedSort(item) : item)).filter((item) => {
    const name = typeof item === 'string' ? item.split(':')[0].split('.')[0].trim() : isRecord(item) ? Object.keys(item)[0] : undefined;
    return name !== undefined && readable(name);
  });
  return kept.length === 0 ? undefined : kept;
}

/**
 * A sort item with its path written with dots. The panel sorts a relation column on the relation's main field as
 * `category[name]:ASC`, and Strapi's content manager reads a sort path as a lodash path (brackets or dots), so it
 * sorts on category.name; the content API refuses brackets (Strapi's REST does too), hence the rewrite here.
 */
function dottedSort(item: string): string {
  const [path, ...direction] = item.split(':');
  return [path.replace(/\[([^\[\]]*)\]/g, '.$1'), ...direction].join(':');
}

/** The filter tree without the keys naming fields the admin may not read (operators and nested targets kept). */
function filtersOf(filters: unknown, readable: (name: string) => boolean): unknown {
  if (Array.isArray(filters)) return filters.map((item) => filtersOf(item, readable));
  if (!isRecord(filters)) return filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === '$and' || key === '$or' || key === '$not') out[key] = filtersOf(value, readable);
    else if (key.startsWith('$') || readable(key)) out[key] = value;
  }
  return out;
}

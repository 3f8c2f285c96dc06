/**
 * The media library's list query (`GET /upload/files`), as the panel sends it:
 * `page`, `pageSize`, `sort` (`updatedAt:DESC`, or several), `_q` (Strapi's
 * search over the file's text columns), `filters` (the folder — by
 * `folderPath` or `folder.id` —, the asset picker's `mime` filters, …).
 * Filters go to the query engine, which refuses what the file type does not
 * have (400). `folder` (the panel also sends the folder id alone) is not a
 * filter and is ignored, as Strapi ignores it. A page holds at most
 * `MAX_PAGE_SIZE` files.
 */
import { ValidationError } from '@tessera/errors';
import { isRecord } from './checks';

export const MAX_PAGE_SIZE = 100;
const SORT_PART = /^([A-Za-z_][A-Za-z0-9_.]*)(?::(asc|desc))?$/i;

export interface FileListQuery {
  page: number;
  pageSize: number;
  orderBy: Array<Record<string, 'asc' | 'desc'>>;
  filters?: Record<string, unknown>;
  _q?: string;
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const text = Array.isArray(value) ? value[0] : value;
  const number = typeof text === 'number' ? text : typeof text === 'string' && /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(number) || number < 1) throw ValidationError.forField([name], `${name} must be a positive integer`);
  return number;
}

/** `field:DIR` strings (one, a comma list or an array) → the engine's orderBy. */
export function parseSort(sort: unknown): Array<Record<string, 'asc' | 'desc'>> {
  if (sort === undefined || sort === '') return [];
  const parts = (Array.isArray(sort) ? sort : [sort]).flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]));
  return parts.map((part) => {
    const match = typeof part === 'string' ? SORT_PART.exec(part.trim()) : null;
    if (!match) throw ValidationError.forField(['sort'], 'sort must be "field" or "field:ASC|DESC"');
    return { [match[1]]: (match[2] ?? 'asc').toLowerCase() as 'asc' | 'desc' };
  });
}

export function readFileListQuery(query: Record<string, unknown>): FileListQuery {
  const pagination = isRecord(query.pagination) ? query.pagination : {};
  const page = positiveInteger(query.page ?? pagination.page, 'page', 1);
  const pageSize = positiveInteger(query.pageSize ?? pagination.pageSize, 'pageSize', 10);
  if (pageSize > MAX_PAGE_SIZE) throw ValidationError.forField(['pageSize'], `pageSize must be less than or equal to ${MAX_PAGE_SIZE}`);
  const out: FileListQuery = { page, pageSize, orderBy: parseSort(query.sort) };
  if (query.filters !== undefined) {
    if (!isRecord(query.filters)) throw ValidationError.forField(['filters'], 'filters must be an object');
    out.filters = query.filters;
  }
  if (query._q !== undefined && query._q !== '') {
    if (typeof query._q !== 'string') throw ValidationError.forField(['_q'], '_q must be a string');
    out._q = query._q;
  }
  return out;
}

/** Whether filters go through one of these relations (Strapi's query then joins, which changes its key order). */
export function joinsRelation(filters: unknown, relations: readonly string[]): boolean {
  if (Array.isArray(filters)) return filters.some((item) => joinsRelation(item, relations));
  if (!isRecord(filters)) return false;
  return Object.entries(filters).some(([key, value]) => relations.includes(key) || (key.startsWith('$') && joinsRelation(value, relations)));
}

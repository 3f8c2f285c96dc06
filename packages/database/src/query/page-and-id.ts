/**
 * The two small readings every layer above does of a request's numbers: an entry id, and a page. One rule
 * each, here at the bottom so the repository (`findPage`), the entity service (server code's `page`/`start`)
 * and the content API (REST's `pagination`, path ids) share it; each caller keeps its own answer to a bad value
 * (Strapi's: a path id that cannot exist is a 404, a relation id or server code's id a 400, each page rule its
 * own wording), so these return `undefined` rather than throw.
 */
import type { Page } from './plan';

/** Ids are integer columns on every database: anything beyond int32 cannot exist (and would break Postgres casts). */
export const MAX_ID = 2147483647;

/** An entry id: a positive integer, given as a number or as decimal digits; undefined for anything else. */
export function entryId(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 && number <= MAX_ID ? number : undefined;
}

/** A page number, size, start or limit: a safe integer, given as a number or as (optionally signed) digits; undefined for anything else. */
export function pageInteger(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^-?\d+$/.test(text.trim())) return undefined;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/** Page `page` (the first when below 1) of `pageSize` entries, as a window. */
export function pageWindow(page: number, pageSize: number): Page {
  return { limit: pageSize, offset: (Math.max(1, page) - 1) * pageSize };
}

/** Strapi's page meta: `{ page, pageSize, pageCount, total }`. */
export interface PagePagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export function pagePagination(page: number, pageSize: number, total: number): PagePagination {
  return { page, pageSize, pageCount: Math.ceil(total / pageSize), total };
}

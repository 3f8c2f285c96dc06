/**
 * The page of a to-many link field (a relation, multiple media, a repeatable
 * component) from its `pagination` argument — Strapi v4.26's rule
 * (`withDefaultPagination` of @strapi/utils with the plugin's `defaultLimit`
 * and `maxLimit`), recorded against a real Strapi in
 * test/data/strapi-4.26.2-relation-pages.json:
 *
 * - no argument: the first `defaultLimit` (10) entries;
 * - `start`/`limit`: `limit` defaults to `defaultLimit`, `-1` means the most
 *   allowed, `0` is read as 1, a negative `start` as 0;
 * - `page`/`pageSize`: `pageSize` below 1 or absent is 1 (so `{ page: 2 }`
 *   alone is the second entry), a `page` below 1 is the first;
 * - both kinds at once: a PaginationError on that field;
 * - never more than `maxLimit` (`amountLimit`) entries.
 */
import { PaginationError } from '@tessera/errors';

/** The plugin's page-size limits (`defaultLimit`, `maxLimit`) for lists and link pages. */
export interface GraphqlLimits {
  defaultLimit: number;
  maxLimit?: number;
}

export interface LinkPage {
  start: number;
  /** Undefined: no limit (only when the plugin has no maximum). */
  limit?: number;
}

type Args = { start?: number | null; limit?: number | null; page?: number | null; pageSize?: number | null };

export function linkPage(pagination: unknown, limits: GraphqlLimits): LinkPage {
  const args = (pagination ?? {}) as Args;
  const byPage = args.page != null || args.pageSize != null;
  const byOffset = args.start != null || args.limit != null;
  if (byPage && byOffset) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  let start = 0;
  let limit = limits.defaultLimit;
  if (byOffset) {
    start = args.start ?? 0;
    limit = args.limit ?? limits.defaultLimit;
  } else if (byPage) {
    const pageSize = Math.max(1, args.pageSize ?? 0);
    start = ((args.page ?? 1) - 1) * pageSize;
    limit = pageSize;
  }
  const max = limits.maxLimit;
  if (limit === -1) return { start: Math.max(0, start), limit: max };
  limit = Math.max(1, limit);
  return { start: Math.max(0, start), limit: max === undefined ? limit : Math.min(limit, max) };
}

/** The page applied to a loaded list. */
export function pageOf<T>(items: T[], page: LinkPage): T[] {
  return items.slice(page.start, page.limit === undefined ? undefined : page.start + page.limit);
}

/**
 * What the populate of a relation asks the database for: the list's head up
 * to the page's end, per parent (the page itself is cut by the field's
 * resolver, which also serves lists it did not load). An invalid page loads
 * nothing: its resolver answers the error.
 */
export function populatePage(pagination: unknown, limits: GraphqlLimits): { limit: number } | Record<string, never> {
  let page: LinkPage;
  try {
    page = linkPage(pagination, limits);
  } catch {
    return { limit: 0 };
  }
  return page.limit === undefined ? {} : { limit: page.start + page.limit };
}

/**
 * Pagination, the content layer's one reading of it, on the database's integer and page rules
 * (`@tessera/database`'s query/page-and-id.ts, which its `findPage` uses too):
 *
 * - the content API's (`parsePagination`): page mode (`page`, `pageSize`) or offset mode (`start`, `limit`), with
 *   Strapi v4's defaults and clamping from `config/api.ts` (`rest.defaultLimit`, `rest.maxLimit`, `rest.withCount`);
 * - server code's (`serverPage`, `serverPageRequest`): the entity service's `start`/`limit` or `page`/`pageSize`, at
 *   the top level or under `pagination`, unclamped, everything when neither (Strapi's entity service).
 */
import { PaginationError, ValidationError } from '@tessera/errors';
import { pageInteger, pageWindow, type Page } from '@tessera/database';

export interface PaginationConfig {
  defaultLimit: number;
  maxLimit?: number;
  withCount: boolean;
}

export type Pagination =
  | { mode: 'page'; page: number; pageSize: number; withCount: boolean }
  | { mode: 'offset'; start: number; limit: number; withCount: boolean };

export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

const TRUE_VALUES = new Set(['true', 't', '1']);
const FALSE_VALUES = new Set(['false', 'f', '0']);

export function parsePagination(raw: unknown, config: PaginationConfig): Pagination {
  if (raw === undefined) raw = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError('Invalid parameter pagination');
  const params = raw as Record<string, unknown>;
  const withCount = parseWithCount(params.withCount, config.withCount);
  const pageMode = params.page !== undefined || params.pageSize !== undefined;
  const offsetMode = params.start !== undefined || params.limit !== undefined;
  if (pageMode && offsetMode) {
    // Strapi v4's REST layer answers this one with a ValidationError, not a PaginationError.
    throw new ValidationError('Invalid pagination attributes. You cannot use page and offset pagination in the same query');
  }
  if (offsetMode) {
    // Strapi v4 floors a negative start at 0; a non-integer is our 400 where Strapi answers 500.
    const start = params.start === undefined ? 0 : Math.max(0, offsetInteger(params.start, 'start'));
    const limit = params.limit === undefined ? config.defaultLimit : offsetInteger(params.limit, 'limit');
    return { mode: 'offset', start, limit: clampLimit(limit, config, true), withCount };
  }
  const page = params.page === undefined ? 1 : pageNumber(params.page, 'page');
  // Page 0 is page 1, as in Strapi v4; a negative page is still a client error.
  if (page < 0) throw pageError('page', params.page);
  const pageSize = params.pageSize === undefined ? config.defaultLimit : pageNumber(params.pageSize, 'pageSize');
  return { mode: 'page', page: Math.max(1, page), pageSize: clampLimit(pageSize, config, false), withCount };
}

export function toPage(pagination: Pagination): Page {
  if (pagination.mode === 'offset') return { limit: pagination.limit, offset: pagination.start };
  return pageWindow(pagination.page, pagination.pageSize);
}

export function paginationMeta(pagination: Pagination, total: number | undefined): PaginationMeta {
  if (pagination.mode === 'offset') {
    const meta: PaginationMeta = { start: pagination.start, limit: pagination.limit };
    if (total !== undefined) meta.total = total;
    return meta;
  }
  const meta: PaginationMeta = { page: pagination.page, pageSize: pagination.pageSize };
  if (total !== undefined) {
    meta.pageCount = Math.ceil(total / pagination.pageSize);
    meta.total = total;
  }
  return meta;
}

/** `limit=-1` (offset mode only) asks for the maximum; below 1 becomes 1; above the maximum is clamped. */
function clampLimit(value: number, config: PaginationConfig, offsetMode: boolean): number {
  if (offsetMode && value === -1) return config.maxLimit ?? config.defaultLimit;
  if (value < 1) return 1;
  if (config.maxLimit !== undefined && value > config.maxLimit) return config.maxLimit;
  return value;
}

function pageNumber(value: unknown, name: 'page' | 'pageSize'): number {
  const parsed = pageInteger(value);
  if (parsed === undefined) throw pageError(name, value);
  return parsed;
}

function pageError(name: 'page' | 'pageSize', value: unknown): PaginationError {
  const shown = typeof value === 'string' ? value.slice(0, 50) : typeof value;
  return new PaginationError(`Invalid '${name}' parameter. Expected an integer > 0, received: ${shown}`);
}

function offsetInteger(value: unknown, name: 'start' | 'limit'): number {
  const parsed = pageInteger(value);
  if (parsed === undefined) throw new ValidationError(`Invalid parameter pagination.${name}: expected an integer`);
  return parsed;
}

function parseWithCount(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (TRUE_VALUES.has(text)) return true;
  if (FALSE_VALUES.has(text)) return false;
  throw new ValidationError('Invalid parameter pagination.withCount: use true or false');
}

/** Server code's page parameters (Strapi's entity service): at the top level, or under `pagination`. */
export interface PaginationParams {
  page?: number | string;
  pageSize?: number | string;
  start?: number | string;
  limit?: number | string;
}

/** The entity service's page size when it is given a page without a size (Strapi's 10). */
const SERVER_PAGE_SIZE = 10;

/** Server code's `start`/`limit` or `page`/`pageSize`; everything (undefined) when neither. A negative limit is no limit. */
export function serverPage(params: PaginationParams & { pagination?: PaginationParams }): Page | undefined {
  const merged = mergedPageParams(params);
  const start = serverInteger(merged.start, 'start');
  const limit = serverInteger(merged.limit, 'limit');
  if (merged.page !== undefined || merged.pageSize !== undefined) {
    const { page, pageSize } = serverPageRequest(params);
    return pageWindow(page, pageSize);
  }
  if (start === undefined && limit === undefined) return undefined;
  return { limit: limit === undefined || limit < 0 ? undefined : limit, offset: Math.max(0, start ?? 0) };
}

/** Server code's page and size (`findPage`): page 1 of 10 unless given, neither below 1. */
export function serverPageRequest(params: PaginationParams & { pagination?: PaginationParams }): { page: number; pageSize: number } {
  const merged = mergedPageParams(params);
  return { page: Math.max(1, serverInteger(merged.page, 'page') ?? 1), pageSize: Math.max(1, serverInteger(merged.pageSize, 'pageSize') ?? SERVER_PAGE_SIZE) };
}

/** The top-level values win over `pagination`'s (an undefined one does not hide the nested one). */
function mergedPageParams(params: PaginationParams & { pagination?: PaginationParams }): PaginationParams {
  const merged: PaginationParams = { ...params.pagination };
  for (const key of ['page', 'pageSize', 'start', 'limit'] as const) if (params[key] !== undefined) merged[key] = params[key];
  return merged;
}

function serverInteger(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = pageInteger(value);
  if (parsed === undefined) throw new ValidationError(`${name} must be an integer`);
  return parsed;
}

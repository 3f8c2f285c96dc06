/**
 * REST pagination, page mode (`page`, `pageSize`) or offset mode (`start`,
 * `limit`), with Strapi v4's defaults and clamping from `config/api.ts`
 * (`rest.defaultLimit`, `rest.maxLimit`, `rest.withCount`).
 */
import { PaginationError, ValidationError } from '@tessera/errors';
import type { Page } from '@tessera/database';

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

const INTEGER = /^-?\d+$/;
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
    throw new PaginationError('Invalid pagination attributes. You cannot use page and offset pagination in the same query');
  }
  if (offsetMode) {
    const start = params.start === undefined ? 0 : integer(params.start, 'start', ValidationError);
    if (start < 0) throw new ValidationError('Invalid parameter pagination.start: must be 0 or more');
    const limit = params.limit === undefined ? config.defaultLimit : integer(params.limit, 'limit', ValidationError);
    return { mode: 'offset', start, limit: clampLimit(limit, config), withCount };
  }
  const page = params.page === undefined ? 1 : integer(params.page, 'page', PaginationError);
  if (page < 1) throw new PaginationError('Invalid parameter pagination.page: must be a positive integer');
  const pageSize = params.pageSize === undefined ? config.defaultLimit : integer(params.pageSize, 'pageSize', PaginationError);
  return { mode: 'page', page, pageSize: clampLimit(pageSize, config), withCount };
}

export function toPage(pagination: Pagination): Page {
  if (pagination.mode === 'offset') return { limit: pagination.limit, offset: pagination.start };
  return { limit: pagination.pageSize, offset: (pagination.page - 1) * pagination.pageSize };
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

/** `limit=-1` asks for the maximum; anything below 1 becomes 1; above the maximum is clamped. */
function clampLimit(value: number, config: PaginationConfig): number {
  if (value === -1) return config.maxLimit ?? config.defaultLimit;
  if (value < 1) return 1;
  if (config.maxLimit !== undefined && value > config.maxLimit) return config.maxLimit;
  return value;
}

function integer(value: unknown, name: string, ErrorType: typeof PaginationError | typeof ValidationError): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !INTEGER.test(text.trim())) {
    throw new ErrorType(`Invalid parameter pagination.${name}: expected an integer`);
  }
  const parsed = Number(text);
  if (!Number.isSafeInteger(parsed)) throw new ErrorType(`Invalid parameter pagination.${name}: out of range`);
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

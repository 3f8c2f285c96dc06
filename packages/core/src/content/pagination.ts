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
    // Strapi v4's REST layer answers this one with a ValidationError, not a PaginationError.
    throw new ValidationError('Invalid pagination attributes. You cannot use page and offset pagination in the same query');
  }
  if (offsetMode) {
    // Strapi v4 floors a negative start at 0; a non-integer is our 400 where Strapi answers 500.
    const start = params.start === undefined ? 0 : Math.max(0, offsetInteger(params.start, 'start'));
    const limit = params.limit === undefined ? config.defaultLimit : offsetInteger(params.limit, 'limit');
    return { mode: 'offset', start, limit: clampLimit(limit, config, true), withCount };
  }
  const page = params.page === undefined ? 1 : pageInteger(params.page, 'page');
  // Page 0 is page 1, as in Strapi v4; a negative page is still a client error.
  if (page < 0) throw pageError('page', params.page);
  const pageSize = params.pageSize === undefined ? config.defaultLimit : pageInteger(params.pageSize, 'pageSize');
  return { mode: 'page', page: Math.max(1, page), pageSize: clampLimit(pageSize, config, false), withCount };
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

/** `limit=-1` (offset mode only) asks for the maximum; below 1 becomes 1; above the maximum is clamped. */
function clampLimit(value: number, config: PaginationConfig, offsetMode: boolean): number {
  if (offsetMode && value === -1) return config.maxLimit ?? config.defaultLimit;
  if (value < 1) return 1;
  if (config.maxLimit !== undefined && value > config.maxLimit) return config.maxLimit;
  return value;
}

function parseInteger(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !INTEGER.test(text.trim())) return undefined;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

function pageInteger(value: unknown, name: 'page' | 'pageSize'): number {
  const parsed = parseInteger(value);
  if (parsed === undefined) throw pageError(name, value);
  return parsed;
}

function pageError(name: 'page' | 'pageSize', value: unknown): PaginationError {
  const shown = typeof value === 'string' ? value.slice(0, 50) : typeof value;
  return new PaginationError(`Invalid '${name}' parameter. Expected an integer > 0, received: ${shown}`);
}

function offsetInteger(value: unknown, name: 'start' | 'limit'): number {
  const parsed = parseInteger(value);
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

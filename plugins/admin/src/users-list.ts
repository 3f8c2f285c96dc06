/**
 * `GET /admin/users`: the Users settings page's list, as `@strapi/admin`
 * 4.26.2 answers it — `{ data: { results, pagination } }`, each user
 * sanitized with its roles — from the query the page sends: `page`,
 * `pageSize`, `sort` (`firstname`, `lastname:DESC`, a list), `filters`
 * (`$and`/`$or`/`$not` and the field operators) and `_q` (a
 * case-insensitive search over the text columns, the email too).
 *
 * Strapi's permissions manager checks the query first: a private field
 * (email, isActive, roles, blocked, the secrets) or a relation named in
 * `filters` or `sort` is "Invalid parameter <name>" (the panel's own email
 * and active filters get that answer on Strapi too); an unknown field or
 * operator in `filters` is dropped. Where Strapi answers 500 (an unknown sort
 * field or direction, `filters` or `_q` not an object or text) this answers
 * the same 400. `pageSize` is bounded (MAX_PAGE_SIZE); Strapi has no bound.
 * Three queries whatever the page holds: the page, its count, the roles.
 */
import { PaginationError, ValidationError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { USER_UID } from './content-types';
import { adminUsers, sanitizeUser, type SanitizedAdminUser } from './users';
import { isPlainObject } from './validation';

/** What the list may filter and sort on: the user's public columns (Strapi's non-private attributes). */
const PUBLIC_FIELDS = new Set(['id', 'firstname', 'lastname', 'username', 'preferedLanguage', 'createdAt', 'updatedAt']);
/** Named in a filter or sort, these are refused as Strapi refuses them. */
const REFUSED_FIELDS = new Set(['email', 'password', 'resetPasswordToken', 'registrationToken', 'isActive', 'roles', 'blocked', 'createdBy', 'updatedBy']);
const LOGICAL = new Set(['$and', '$or']);
const OPERATORS = new Set([
  '$eq', '$eqi', '$ne', '$nei', '$in', '$notIn', '$lt', '$lte', '$gt', '$gte', '$null', '$notNull', '$between',
  '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);
export const MAX_PAGE_SIZE = 1000;

export interface UsersPage {
  results: SanitizedAdminUser[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

const invalid = (name: string) => new ValidationError(`Invalid parameter ${name}`);

/** Strapi's page rules and words (`Invalid 'pageSize' parameter … received: <page>` is theirs too). */
function pagination(query: Record<string, unknown>): { page: number; pageSize: number } {
  const number = (value: unknown, fallback: number) => (value === undefined ? fallback : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN);
  const page = number(query.page, 1);
  if (!Number.isInteger(page) || page <= 0) throw new PaginationError(`Invalid 'page' parameter. Expected an integer > 0, received: ${String(query.page)}`);
  const pageSize = number(query.pageSize, 10);
  if (!Number.isInteger(pageSize) || pageSize <= 0) throw new PaginationError(`Invalid 'pageSize' parameter. Expected an integer > 0, received: ${String(query.page ?? 1)}`);
  if (pageSize > MAX_PAGE_SIZE) throw new PaginationError(`Invalid 'pageSize' parameter. Expected an integer up to ${MAX_PAGE_SIZE}, received: ${pageSize}`);
  return { page, pageSize };
}

/** `sort`: `field`, `field:asc|desc` (any case), comma-separated or a list; a public field each. */
function orderBy(sort: unknown): Array<Record<string, 'asc' | 'desc'>> {
  if (sort === undefined || sort === '') return [];
  const items = typeof sort === 'string' ? sort.split(',') : Array.isArray(sort) && sort.every((item) => typeof item === 'string') ? (sort as string[]) : null;
  if (items === null) throw invalid('sort');
  return items.map((item) => {
    const [field, direction = 'asc', ...rest] = item.trim().split(':');
    if (REFUSED_FIELDS.has(field) || !PUBLIC_FIELDS.has(field)) throw invalid(field);
    const order = direction.toLowerCase();
    if ((order !== 'asc' && order !== 'desc') || rest.length > 0) throw invalid('sort');
    return { [field]: order };
  });
}

/** The filters with unknown fields and operators dropped, refused fields refused (Strapi's validate then sanitize). */
function cleanFilters(filters: unknown, depth = 0): Record<string, unknown> {
  if (!isPlainObject(filters) || depth > 8) throw invalid('filters');
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (LOGICAL.has(key)) {
      const parts = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : null;
      if (parts === null) throw invalid(key);
      clean[key] = parts.map((part) => cleanFilters(part, depth + 1));
    } else if (key === '$not') {
      clean[key] = cleanFilters(value, depth + 1);
    } else if (REFUSED_FIELDS.has(key)) {
      throw invalid(key);
    } else if (PUBLIC_FIELDS.has(key)) {
      const condition = fieldCondition(value);
      if (condition !== undefined) clean[key] = condition;
    }
  }
  return clean;
}

/** A field's condition: a value (equality) or known operators; null when none is left. */
function fieldCondition(value: unknown): unknown {
  if (!isPlainObject(value)) return Array.isArray(value) ? { $in: value } : { $eq: value };
  const kept = Object.entries(value).filter(([operator]) => OPERATORS.has(operator));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

export async function findUsersPage(app: App, query: Record<string, unknown>): Promise<UsersPage> {
  const { page, pageSize } = pagination(query);
  const sort = orderBy(query.sort);
  const where = query.filters === undefined ? {} : cleanFilters(query.filters);
  if (query._q !== undefined && typeof query._q !== 'string') throw invalid('_q');
  const q = typeof query._q === 'string' && query._q !== '' ? query._q : undefined;
  // Ties (and no sort) in id order, what Strapi's SQLite answers show: PostgreSQL and MariaDB promise no order otherwise.
  const found = await app.db.query(USER_UID).findPage({ where, orderBy: [...sort, { id: 'asc' }], ...(q === undefined ? {} : { _q: q }), page, pageSize });
  const users = await adminUsers(app).withRoles(found.results);
  return { results: users.map(sanitizeUser), pagination: found.pagination };
}

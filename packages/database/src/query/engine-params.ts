/**
 * Strapi v4's query-engine parameters (`strapi.db.query(uid).findMany({
 * where, select, orderBy, limit, offset, populate })`) translated to a
 * compiled plan, so code written for Strapi's query engine runs on ours.
 * `where` takes the filter operators; `orderBy` a name, `{ name: 'desc' }`
 * or a list of these; `select` a name or a list. Trusted: private attributes
 * may be selected and filtered.
 */
import { ValidationError } from '@tessera/errors';
import type { EntityQuery, Page } from './plan';

export interface EngineParams {
  where?: Record<string, unknown>;
  select?: string | string[];
  orderBy?: string | Record<string, unknown> | Array<string | Record<string, unknown>>;
  populate?: unknown;
  limit?: number;
  offset?: number;
  publicationState?: 'live' | 'preview';
}

/** What the repository needs, from either a compiled plan (`{ query }`) or engine parameters. */
export interface ResolvedRead {
  query: EntityQuery;
  page?: Page;
}

export type PlanCompiler = (params: { filters?: unknown; sort?: unknown; fields?: unknown; populate?: unknown; publicationState?: unknown }) => EntityQuery;

export function isCompiled(params: object): params is { query: EntityQuery } {
  return 'query' in params && typeof (params as { query?: unknown }).query === 'object' && (params as { query: object }).query !== null && 'entity' in (params as { query: object }).query;
}

export function resolveEngineParams(params: EngineParams, compile: PlanCompiler): ResolvedRead {
  const query = compile({
    filters: params.where,
    sort: orderByToSort(params.orderBy),
    fields: params.select,
    populate: params.populate,
    publicationState: params.publicationState,
  });
  const page = params.limit === undefined && params.offset === undefined ? undefined : { limit: nonNegative(params.limit, 'limit'), offset: nonNegative(params.offset, 'offset') ?? 0 };
  return { query, page };
}

/** The id a `where` names (`{ id: 3 }` or `{ id: { $eq: 3 } }`), if it names exactly one. */
export function idOfWhere(where: Record<string, unknown> | undefined): number | undefined {
  const id = where?.id;
  const value = typeof id === 'object' && id !== null && '$eq' in id ? (id as { $eq: unknown }).$eq : id;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function orderByToSort(orderBy: EngineParams['orderBy']): string[] | undefined {
  if (orderBy === undefined) return undefined;
  const items = Array.isArray(orderBy) ? orderBy : [orderBy];
  return items.flatMap((item) => {
    if (typeof item === 'string') return [item];
    return Object.entries(item).map(([name, direction]) => `${name}:${String(direction).toLowerCase()}`);
  });
}

function nonNegative(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(`${name} must be a non-negative integer`);
  return value;
}

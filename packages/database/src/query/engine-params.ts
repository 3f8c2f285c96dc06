/**
 * Strapi v4's query-engine parameters (`strapi.db.query(uid).findMany({
 * where, filters, _q, select, orderBy, limit, offset, populate })`), the
 * shape lifecycle hooks see in `event.params`, and their two translations:
 *
 * - `toEngineParams`: request parameters (`filters, fields, sort, populate`,
 *   what REST clients and the entity service take) → engine parameters, as
 *   Strapi's `transformParamsToQuery` makes them (`populate=deep` → `['deep']`,
 *   `sort=title:desc` → `[{ title: 'desc' }]`, nested populate with
 *   `select/where/orderBy`).
 * - `fromEngineParams`: engine parameters → request parameters for the pure
 *   compiler: `where` and `filters` ANDed, as Strapi's query builder pushes
 *   `filters` into its where clause. Nested populate takes either vocabulary.
 *
 * No parameter Strapi's builder reads is dropped in silence: a dropped
 * `filters` once made `deleteMany({ filters })` delete every row. What
 * Tessera cannot do (`groupBy`, a `filters` function) is refused.
 *
 * The engine form is trusted when server code passes it: private attributes
 * may be selected and filtered.
 */
import { ValidationError } from '@tessera/errors';
import type { QueryParams } from './compile-context';
import type { ReadPlan, Page } from './plan';

export interface EngineParams {
  where?: Record<string, unknown>;
  /** ANDed with `where` (Strapi's query builder pushes it into the where clause). */
  filters?: Record<string, unknown>;
  select?: string | string[];
  orderBy?: string | Record<string, unknown> | Array<string | Record<string, unknown>>;
  populate?: unknown;
  limit?: number;
  offset?: number;
  publicationState?: 'live' | 'preview';
  /** The search text (search-filter.ts): compiled by the content API for its callers, by the repository for server code. */
  _q?: string;
  /** Strapi's aggregation grouping: refused (entries are never grouped here). */
  groupBy?: unknown;
  /** A write's values. */
  data?: Record<string, unknown>;
}

/** Request parameters, as the compiler (and the content API, for `_q`) take them. */
export interface RequestQueryParams extends QueryParams {
  _q?: unknown;
}

/** What the repository needs, from either a compiled plan (`{ query }`) or engine parameters. */
export interface ResolvedRead {
  query: ReadPlan;
  page?: Page;
}

/**
 * Where a compiled plan came from, so lifecycle hooks can be shown Strapi's
 * parameters and a hook's changes can be compiled again, under the same rules
 * as the first compile (the content API's compile keeps the caller's scope).
 */
export interface QuerySource {
  params: RequestQueryParams;
  compile?: (params: RequestQueryParams) => ReadPlan;
}

export type PlanCompiler = (params: RequestQueryParams) => ReadPlan;

/** A repository call in its compiled form: the plan, its page or id, a write's data, and where the plan came from. */
export interface CompiledParams {
  query?: ReadPlan;
  page?: Page;
  id?: number;
  data?: Record<string, unknown>;
  source?: QuerySource;
}

/** A compiled call's parameters in Strapi's shape, as lifecycle hooks see them: the source's, its id as `where.id`, its page and data. */
export function hookParams(params: CompiledParams): EngineParams {
  const source = params.source ? toEngineParams(params.source.params) : {};
  const result: EngineParams = { ...source };
  if (params.id !== undefined) result.where = source.where === undefined ? { id: params.id } : { id: params.id, $and: [source.where] };
  if (params.page?.limit !== undefined) result.limit = params.page.limit;
  if (params.page) result.offset = params.page.offset;
  if (params.data !== undefined) result.data = params.data;
  return result;
}

/** What a hook may change about a read, as text: a different text means compile again. */
export function hookReadShape(params: EngineParams): string {
  const { where, filters, select, populate, orderBy, limit, offset, publicationState, _q } = params;
  return JSON.stringify([where, filters, select, populate, orderBy, limit, offset, publicationState, _q]);
}

export function isCompiled(params: object): params is { query: ReadPlan } {
  return 'query' in params && typeof (params as { query?: unknown }).query === 'object' && (params as { query: object }).query !== null && 'entity' in (params as { query: object }).query;
}

export function resolveEngineParams(params: EngineParams, compile: PlanCompiler): ResolvedRead {
  const query = compile(fromEngineParams(params));
  return { query, page: pageOf(params) };
}

/** `limit`/`offset` of engine parameters, checked; undefined when neither is given. */
export function pageOf(params: EngineParams): Page | undefined {
  if (params.limit === undefined && params.offset === undefined) return undefined;
  return { limit: nonNegative(params.limit, 'limit'), offset: nonNegative(params.offset, 'offset') ?? 0 };
}

/** The id a `where` names (`{ id: 3 }` or `{ id: { $eq: 3 } }`), if it names exactly one. */
export function idOfWhere(where: Record<string, unknown> | undefined): number | undefined {
  const id = where?.id;
  const value = typeof id === 'object' && id !== null && '$eq' in id ? (id as { $eq: unknown }).$eq : id;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** Request parameters → Strapi's engine parameters (what a hook sees). */
export function toEngineParams(params: RequestQueryParams): EngineParams {
  const engine: EngineParams = {};
  if (params._q !== undefined) engine._q = params._q as string;
  if (params.sort !== undefined) engine.orderBy = sortToOrderBy(params.sort);
  if (params.filters !== undefined) engine.where = params.filters as Record<string, unknown>;
  if (params.fields !== undefined) engine.select = fieldsToSelect(params.fields);
  if (params.populate !== undefined) engine.populate = populateToEngine(params.populate, true);
  if (params.publicationState !== undefined) engine.publicationState = params.publicationState as EngineParams['publicationState'];
  return engine;
}

/** Strapi's engine parameters → request parameters for the compiler. */
export function fromEngineParams(params: EngineParams): RequestQueryParams {
  if (params.groupBy !== undefined && params.groupBy !== null) throw new ValidationError('groupBy is not supported by the query engine: group the entries in code');
  const request: RequestQueryParams = {
    filters: engineCondition(params),
    sort: orderByToSort(params.orderBy),
    fields: params.select,
    populate: populateFromEngine(params.populate),
    publicationState: params.publicationState,
  };
  if (params._q !== undefined) request._q = params._q;
  return request;
}

/**
 * `where` and `filters` as one condition, ANDed as Strapi's query builder ANDs them (null or absent parts left
 * out, as its `isNil` checks leave them); undefined when neither is given.
 */
export function engineCondition(params: Pick<EngineParams, 'where' | 'filters'>): Record<string, unknown> | undefined {
  const parts = [conditionPart(params.where, 'where'), conditionPart(params.filters, 'filters')].filter((part): part is Record<string, unknown> => part !== undefined);
  return parts.length === 2 ? { $and: parts } : parts[0];
}

/** Whether a write's condition names nothing (Strapi's update and delete refuse it rather than touch the first row). */
export function hasNoCondition(params: Pick<EngineParams, 'where' | 'filters'>): boolean {
  const condition = engineCondition(params);
  return condition === undefined || Object.keys(condition).length === 0;
}

function conditionPart(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'function') throw new ValidationError(`${name} given as a function is not supported by the query engine: pass an object`);
  if (!isPlainObject(value)) throw new ValidationError(`${name} must be an object`);
  return value;
}

function fieldsToSelect(fields: unknown): EngineParams['select'] {
  const list = typeof fields === 'string' ? fields.split(',').map((field) => field.trim()) : Array.isArray(fields) ? fields.flatMap((field) => String(field).split(',').map((part) => part.trim())) : undefined;
  if (!list) return fields as EngineParams['select'];
  return [...new Set(['id', ...list.filter(Boolean)])];
}

/** `'title:desc,author.name'` → `[{ title: 'desc' }, { author: { name: 'asc' } }]`, as Strapi's convertSortQueryParams. */
function sortToOrderBy(sort: unknown): EngineParams['orderBy'] {
  if (typeof sort === 'string') {
    return sort.split(',').map((part) => {
      const [path, direction = 'asc'] = part.trim().split(':');
      return nest(path.split('.'), direction.toLowerCase());
    });
  }
  if (Array.isArray(sort)) return sort.flatMap((item) => sortToOrderBy(item) as Array<Record<string, unknown>>);
  return sort as EngineParams['orderBy'];
}

function nest(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

/** `{ author: { name: 'desc' } }` → `author.name:desc`. */
function orderByToSort(orderBy: EngineParams['orderBy']): string[] | undefined {
  if (orderBy === undefined) return undefined;
  const items = Array.isArray(orderBy) ? orderBy : [orderBy];
  return items.flatMap((item) => (typeof item === 'string' ? [item] : flattenOrder(item, [])));
}

function flattenOrder(item: Record<string, unknown>, prefix: string[]): string[] {
  return Object.entries(item).flatMap(([name, direction]) =>
    typeof direction === 'object' && direction !== null ? flattenOrder(direction as Record<string, unknown>, [...prefix, name]) : [`${[...prefix, name].join('.')}:${String(direction).toLowerCase()}`],
  );
}

/** Strapi's populate conversion: `*` → true at the top, `'a,b'` → `['a', 'b']`, objects with `select/where/orderBy`. */
function populateToEngine(populate: unknown, top: boolean): unknown {
  if (top && populate === '*') return true;
  if (typeof populate === 'string') return populate.split(',').map((part) => part.trim());
  if (Array.isArray(populate)) return [...new Set(populate.flatMap((item) => (typeof item === 'string' ? item.split(',').map((part) => part.trim()) : [item])))];
  if (!isPlainObject(populate)) return populate;
  const result: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(populate)) result[key] = isPlainObject(spec) ? nestedToEngine(spec) : spec === '*' ? true : spec;
  return result;
}

function nestedToEngine(spec: Record<string, unknown>): Record<string, unknown> {
  const { fields, filters, sort, populate, on, ...rest } = spec;
  const result: Record<string, unknown> = { ...rest };
  if (fields !== undefined) result.select = fieldsToSelect(fields);
  if (filters !== undefined) result.where = filters;
  if (sort !== undefined) result.orderBy = sortToOrderBy(sort);
  if (populate !== undefined) result.populate = populateToEngine(populate, false);
  if (isPlainObject(on)) result.on = Object.fromEntries(Object.entries(on).map(([uid, inner]) => [uid, isPlainObject(inner) ? nestedToEngine(inner) : inner]));
  return result;
}

function populateFromEngine(populate: unknown): unknown {
  if (!isPlainObject(populate)) return populate;
  const result: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(populate)) result[key] = isPlainObject(spec) ? nestedFromEngine(spec) : spec;
  return result;
}

function nestedFromEngine(spec: Record<string, unknown>): Record<string, unknown> {
  const { select, where, orderBy, populate, on, ...rest } = spec;
  const result: Record<string, unknown> = { ...rest };
  if (select !== undefined) result.fields = select;
  if (where !== undefined) result.filters = where;
  if (orderBy !== undefined) result.sort = orderByToSort(orderBy as EngineParams['orderBy']);
  if (populate !== undefined) result.populate = populateFromEngine(populate);
  if (isPlainObject(on)) result.on = Object.fromEntries(Object.entries(on).map(([uid, inner]) => [uid, isPlainObject(inner) ? nestedFromEngine(inner) : inner]));
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonNegative(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(`${name} must be a non-negative integer`);
  return value;
}

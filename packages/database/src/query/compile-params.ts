/**
 * The query-parameter compiler: a pure function of (parameters, model) to a
 * validated `EntityQuery`. Everything a client can send in `filters`, `sort`,
 * `fields`, `populate` and `publicationState` is checked here, so the SQL
 * layer only ever sees known columns, known operators and typed values.
 */
import { ValidationError } from '@tessera/errors';
import type { ColumnField, EntityMetadata, Metadata } from '../metadata/metadata';
import type { Condition, EntityQuery, PublicationState, SortItem } from './plan';
import { compileFilters } from './compile-filters';
import { compilePopulate } from './compile-populate';
import { compileSort } from './compile-sort';

export interface QueryParams {
  filters?: unknown;
  sort?: unknown;
  fields?: unknown;
  populate?: unknown;
  publicationState?: unknown;
}

export interface CompileOptions {
  /** Reject unknown populate keys instead of ignoring them (`rest.strictParams`). */
  strictParams?: boolean;
  /** Whether the caller may read entries of a content type (populate obeys it). */
  canRead?: (uid: string) => boolean;
  /** Trusted internal callers may select, filter and sort on private attributes. */
  allowPrivate?: boolean;
  /** Publication state when the parameters do not say. */
  defaultPublicationState?: PublicationState;
}

export interface CompileContext {
  metadata: Metadata;
  options: CompileOptions;
}

export function compileQuery(params: QueryParams, entity: EntityMetadata, metadata: Metadata, options: CompileOptions = {}): EntityQuery {
  const context: CompileContext = { metadata, options };
  const publicationState = compilePublicationState(params.publicationState, options.defaultPublicationState ?? 'live');
  return compileEntityQuery(params, entity, context, publicationState);
}

/** One level: also used for each populated relation with its own parameters. */
export function compileEntityQuery(
  params: QueryParams,
  entity: EntityMetadata,
  context: CompileContext,
  publicationState: PublicationState,
): EntityQuery {
  const where: Condition | null = compileFilters(params.filters, entity, context);
  const sort: SortItem[] = compileSort(params.sort, entity, context);
  return {
    entity,
    fields: compileFields(params.fields, entity, context.options.allowPrivate),
    where,
    sort,
    populate: compilePopulate(params.populate, entity, context, publicationState),
    publicationState,
  };
}

export function compilePublicationState(value: unknown, fallback: PublicationState): PublicationState {
  if (value === undefined) return fallback;
  if (value === 'live' || value === 'preview') return value;
  throw new ValidationError('Invalid parameter publicationState: use "live" or "preview"');
}

export function compileFields(value: unknown, entity: EntityMetadata, allowPrivate = false): ColumnField[] {
  const all = allowPrivate ? entity.allColumns : entity.publicColumns;
  if (value === undefined || value === '*') return all;
  const names = listOfNames(value, 'fields');
  const selected = new Map<string, ColumnField>();
  selected.set('id', entity.columns.get('id')!);
  for (const name of names) {
    if (name === '*') return all;
    const field = entity.columns.get(name);
    if (!field || (field.private && !allowPrivate)) throw invalidParameter(name);
    selected.set(name, field);
  }
  return [...selected.values()];
}

/** `a,b`, `['a','b']` or qs's `{ 0: 'a', 1: 'b' }` → names. */
export function listOfNames(value: unknown, parameter: string): string[] {
  const items = typeof value === 'string' ? value.split(',') : arrayLike(value);
  if (!items) throw invalidParameter(parameter);
  return items.map((item) => {
    if (typeof item !== 'string') throw invalidParameter(parameter);
    return item.trim();
  }).filter((item) => item.length > 0);
}

/** Arrays, and the `{ '0': …, '1': … }` objects qs makes of long index lists. */
export function arrayLike(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
    }
  }
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function invalidParameter(key: string, reason?: string): ValidationError {
  return new ValidationError(reason ? `Invalid parameter ${key}: ${reason}` : `Invalid parameter ${key}`);
}

/**
 * What every part of the parameter compiler shares: the parameters' shape,
 * the caller's options, and the helpers that read qs-parsed values and name a
 * bad one in a 400. Kept apart from the compilers so they import it, never
 * each other in a circle.
 */
import { closest, ValidationError } from '@tessera/errors';
import type { Metadata } from '../metadata/metadata';
import type { PublicationState } from './plan';

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
  /**
   * Server code's query engine (`strapi.db.query`, not the entity service): a plain equality on a column Strapi's engine does
   * not cast, with a value the column cannot hold, matches no row instead of a 400 (compile-filters.ts, uncastEquality).
   */
  serverCode?: boolean;
  /**
   * Leave out a filter key that names no attribute instead of refusing it: server code's entity service calls, as
   * Strapi 4.26.2's (its convertFiltersQueryParams removes such keys, so `{ status: 'x' }` on a type without `status`
   * matches every entry). The content API keeps refusing them with a 400.
   */
  dropUnknownFilterKeys?: boolean;
  /** Publication state when the parameters do not say. */
  defaultPublicationState?: PublicationState;
}

export interface CompileContext {
  metadata: Metadata;
  options: CompileOptions;
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

/** An unknown key, with the closest of the valid ones suggested when one is near (`pagesize` → `pageSize`). */
export function unknownParameter(key: string, valid: Iterable<string>): ValidationError {
  const suggestion = closest(key, valid);
  return invalidParameter(key, suggestion === undefined ? undefined : `did you mean ${suggestion}?`);
}

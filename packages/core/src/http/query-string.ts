/**
 * Query strings → parameters, with qs in bracket notation and hard bounds:
 * too deep, too many parameters or too long an array is a 400, not a slow
 * request. Prototype keys (`__proto__`, `constructor`) are dropped by qs.
 *
 * What a URL means is pinned twice: qs is an exact version (package.json),
 * and every option that changes a parse is written out below, so neither a
 * new qs default nor a new release can change it unseen; the table in
 * test/query-string.test.ts holds the meaning of each form. Strapi 4.26.2
 * parses with qs 6.15.1 (4.13: 6.11.1) and `strictNullHandling`, depth 20;
 * the forms real frontends send mean the same here (see README, "Query
 * string"). Where qs versions differ — `a[b]=1&a=2` is `{ a: { b, 2: true } }`
 * in 6.11 and `[{ b }, '2']` since 6.12 — the compiler reads both the same.
 *
 * `ctx.query` is this parse (as Strapi v4's query middleware makes it), once
 * per request: route middlewares read and rewrite it (`ctx.query.populate =
 * …` or `ctx.query = {…}`) and the controller then sees their version.
 */
import type Koa from 'koa';
import qs from 'qs';
import { ValidationError } from '@tessera/errors';

const LIMITS = {
  depth: 12,
  parameterLimit: 1000,
  arrayLimit: 100,
  maxLength: 16 * 1024,
};

/** Every option that changes what a query string means, written out (qs 6.17.1's defaults unless said). */
const QS_OPTIONS = {
  // bounds: beyond them a 400, never a truncated or slow parse
  depth: LIMITS.depth,
  strictDepth: true,
  parameterLimit: LIMITS.parameterLimit,
  arrayLimit: LIMITS.arrayLimit,
  throwOnLimitExceeded: true,
  // no prototype keys; objects without a prototype
  allowPrototypes: false,
  plainObjects: true,
  // notation: brackets and `&` only (no dots, no commas, no `;`), `a[]` and `a[0]` are arrays
  delimiter: '&',
  allowDots: false,
  decodeDotInKeys: false,
  comma: false,
  parseArrays: true,
  allowSparse: false,
  allowEmptyArrays: false,
  ignoreQueryPrefix: false,
  // repeated keys make a list; a key both plain and bracketed makes a list of both (read as their union by populate)
  duplicates: 'combine',
  strictMerge: true,
  // `a` and `a=` are both ''
  strictNullHandling: false,
  charset: 'utf-8',
  charsetSentinel: false,
  interpretNumericEntities: false,
} as const satisfies qs.IParseOptions;

export function parseQuery(querystring: string): Record<string, unknown> {
  if (querystring === '') return {};
  if (querystring.length > LIMITS.maxLength) throw new ValidationError(`Query string too long (limit ${LIMITS.maxLength} characters)`);
  const known = recentParses.get(querystring);
  if (known) return copyParsed(known) as Record<string, unknown>;
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(querystring, QS_OPTIONS) as Record<string, unknown>;
  } catch (error) {
    throw new ValidationError(`Invalid query string: ${(error as Error).message}`);
  }
  if (querystring.length <= CACHED_LENGTH) {
    if (recentParses.size >= CACHED_PARSES) recentParses.clear();
    recentParses.set(querystring, copyParsed(parsed));
  }
  return parsed;
}

/**
 * Clients repeat the same query strings (a page's list, its populate), and qs's parse costs more than the
 * rest of a cached list's request handling outside the database. Recent parses are kept, and each request
 * gets its own copy: route middlewares may change the value they are given. Bounded: when full it starts over.
 */
const recentParses = new Map<string, unknown>();
const CACHED_PARSES = 256;
const CACHED_LENGTH = 2048;

/** A copy of a qs result: strings, arrays and objects without a prototype (`plainObjects`), nothing else. */
function copyParsed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyParsed);
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) copy[key] = copyParsed((value as Record<string, unknown>)[key]);
  return copy;
}

const PARSED = Symbol('parsed query');

type QueryCarrier = Koa.Request & { [PARSED]?: { source: string; value: Record<string, unknown> } };

/** Makes `ctx.query` / `ctx.request.query` the bounded qs parse, cached per request and writable. */
export function installQueryParser(koa: Koa): void {
  Object.defineProperty(koa.request, 'query', {
    configurable: true,
    get(this: QueryCarrier) {
      const source = this.querystring;
      const cached = this[PARSED];
      if (cached && cached.source === source) return cached.value;
      const value = parseQuery(source);
      this[PARSED] = { source, value };
      return value;
    },
    set(this: QueryCarrier, value: Record<string, unknown>) {
      // Kept as the object given (no round trip through a string), so nested values survive as they are.
      this[PARSED] = { source: this.querystring, value };
    },
  });
}

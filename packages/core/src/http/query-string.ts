/**
 * Query strings → parameters, with qs in bracket notation and hard bounds:
 * too deep, too many parameters or too long an array is a 400, not a slow
 * request. Prototype keys (`__proto__`, `constructor`) are dropped by qs.
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

export function parseQuery(querystring: string): Record<string, unknown> {
  if (querystring === '') return {};
  if (querystring.length > LIMITS.maxLength) throw new ValidationError(`Query string too long (limit ${LIMITS.maxLength} characters)`);
  try {
    return qs.parse(querystring, {
      depth: LIMITS.depth,
      strictDepth: true,
      parameterLimit: LIMITS.parameterLimit,
      arrayLimit: LIMITS.arrayLimit,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
      plainObjects: true,
    }) as Record<string, unknown>;
  } catch (error) {
    throw new ValidationError(`Invalid query string: ${(error as Error).message}`);
  }
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

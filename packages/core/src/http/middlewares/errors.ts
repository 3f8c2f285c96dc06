/**
 * `strapi::errors`: every failure, from any later middleware, the router or a
 * handler, is answered as `{ data: null, error: { status, name, message,
 * details } }`. The HTTP server installs it outermost whatever the stack says,
 * because the envelope is the contract; in the stack it only marks the place.
 */
import type Koa from 'koa';
import { isUnexpected, normalizeError, toErrorBody } from '@tessera/errors';
import type { Logger } from '../../logger';
import type { Builtin } from './builtin';

export function errorEnvelope(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (isUnexpected(error)) logger.error(`${ctx.method} ${ctx.path} failed`, error);
      const known = normalizeError(error);
      ctx.status = known.status;
      ctx.body = toErrorBody(known);
    }
  };
}

export const errors: Builtin = {
  keys: [],
  create: () => undefined,
};

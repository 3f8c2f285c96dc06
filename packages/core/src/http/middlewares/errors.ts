/**
 * `strapi::errors`: every failure, from any later middleware, the router or a
 * handler, is answered as `{ data: null, error: { status, name, message,
 * details } }` (an unexpected error's 500 without `details`, as Strapi's). The HTTP server installs it outermost whatever the stack says,
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
      const body = toErrorBody(known);
      // Strapi's answer to an error it does not know has no details (recorded: its 500 envelope holds status, name and message).
      const { details: _details, ...withoutDetails } = body.error;
      ctx.body = known.status === 500 ? { data: null, error: withoutDetails } : body;
    }
  };
}

export const errors: Builtin = {
  keys: [],
  create: () => undefined,
};

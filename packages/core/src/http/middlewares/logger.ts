/**
 * `strapi::logger`: one line per request (`GET /api/articles 200 3.1ms`) at
 * the `http` log level; absent from the chain when that level is off.
 */
import type Koa from 'koa';
import { normalizeError } from '@tessera/errors';
import type { Builtin } from './builtin';

export const logger: Builtin = {
  keys: [],
  create(_config, { app }) {
    const log = app.log;
    if (!log.enabled('http')) return undefined;
    const middleware: Koa.Middleware = async (ctx, next) => {
      const started = process.hrtime.bigint();
      let status: number | undefined;
      try {
        await next();
      } catch (error) {
        // The envelope is written further out; log the status it will carry.
        status = normalizeError(error).status;
        throw error;
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.http(`${ctx.method} ${ctx.url} ${status ?? ctx.status} ${ms.toFixed(1)}ms`);
      }
    };
    return middleware;
  },
};

/** `strapi::poweredBy`: `X-Powered-By: Tessera`, or the configured `poweredBy` text. */
import type Koa from 'koa';
import type { Builtin } from './builtin';

export const poweredBy: Builtin = {
  keys: ['poweredBy'],
  create(config) {
    const value = String(config.poweredBy ?? 'Tessera');
    const middleware: Koa.Middleware = (ctx, next) => {
      ctx.set('X-Powered-By', value);
      return next();
    };
    return middleware;
  },
};

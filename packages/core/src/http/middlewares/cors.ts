/**
 * `strapi::cors`: cross-origin access through @koa/cors. `origin` is `*`
 * (default), a list, a comma-separated string or `(ctx) => one of those`; a
 * request from an origin not listed gets no CORS headers (the browser then
 * refuses it) and a preflight from it is not answered here. `credentials`
 * is off by default; with it on, the allowed origin is echoed (never `*`).
 */
import type Koa from 'koa';
import type { Builtin } from './builtin';

type OriginSetting = string | string[];
type OriginFunction = (ctx: Koa.Context) => OriginSetting | Promise<OriginSetting>;

const DEFAULTS = {
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
  maxAge: 31536000,
};

export const cors: Builtin = {
  keys: ['origin', 'methods', 'headers', 'credentials', 'maxAge', 'expose', 'keepHeadersOnError'],
  create(config, context) {
    const credentials = config.credentials === true;
    const origin = config.origin ?? '*';
    const fixed = typeof origin === 'function' ? undefined : origins(origin as OriginSetting);
    if (credentials && fixed?.includes('*')) {
      context.app.log.warn(`${context.file}: strapi::cors allows credentials from any origin; list the origins you trust`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const koaCors = require('@koa/cors') as typeof import('@koa/cors');
    const withCors = koaCors({
      origin: async (ctx) => allowedOrigin(ctx, fixed ?? origins(await (origin as OriginFunction)(ctx))),
      credentials,
      allowMethods: list(config.methods, DEFAULTS.methods),
      allowHeaders: list(config.headers, DEFAULTS.headers),
      exposeHeaders: config.expose === undefined ? undefined : list(config.expose, []),
      maxAge: config.maxAge === undefined ? DEFAULTS.maxAge : Number(config.maxAge),
      keepHeadersOnError: config.keepHeadersOnError !== false,
    }) as Koa.Middleware;
    // Most API calls (servers, curl, same-origin pages) send no Origin: they skip @koa/cors's async steps.
    const middleware: Koa.Middleware = (ctx, next) => {
      // Node keeps request header names lower-cased: the look-up ctx.get would make, without its case folding.
      if (ctx.req.headers.origin) return withCors(ctx, next);
      // What ctx.vary('Origin') writes when no Vary is set yet (the usual case), without parsing a header.
      if (ctx.res.hasHeader('Vary')) ctx.vary('Origin');
      else ctx.res.setHeader('Vary', 'Origin');
      return next();
    };
    return middleware;
  },
};

/** The Access-Control-Allow-Origin value for this request, or '' for none. */
function allowedOrigin(ctx: Koa.Context, allowed: string[]): string {
  if (allowed.includes('*')) return '*';
  const requestOrigin = ctx.get('origin');
  return allowed.includes(requestOrigin) ? requestOrigin : '';
}

function origins(setting: OriginSetting): string[] {
  const values = Array.isArray(setting) ? setting : String(setting ?? '').split(',');
  return values.map((value) => String(value).trim()).filter((value) => value !== '');
}

function list(value: unknown, fallback: string[]): string[] {
  if (value === undefined) return fallback;
  return Array.isArray(value) ? value.map(String) : String(value).split(',').map((item) => item.trim());
}

/**
 * `strapi::query`: accepted for Strapi compatibility and does nothing. Strapi
 * replaces Koa's query parser with qs here; Tessera's REST controller parses
 * the query string itself, with hard bounds, so `ctx.query` stays Koa's flat
 * parse and the options (`arrayLimit`, `depth`, …) have no effect.
 */
import type { Builtin } from './builtin';

export const query: Builtin = {
  keys: ['strictNullHandling', 'arrayLimit', 'depth', 'parameterLimit'],
  create: () => undefined,
};

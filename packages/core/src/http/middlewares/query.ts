/**
 * `strapi::query`: accepted for Strapi compatibility and does nothing. Strapi
 * replaces Koa's query parser with qs here; Tessera's HTTP server already did
 * (http/server.ts installs http/query-string.ts: qs, pinned, with hard bounds,
 * parsed on first read of `ctx.query`), so the options (`arrayLimit`,
 * `depth`, …) have no effect.
 */
import type { Builtin } from './builtin';

export const query: Builtin = {
  keys: ['strictNullHandling', 'arrayLimit', 'depth', 'parameterLimit'],
  create: () => undefined,
};

/**
 * The global middleware stack, from `config/middlewares.ts` in Strapi v4's
 * form: a list of names or `{ name, config }` / `{ resolve, config }`.
 *
 *   strapi::<builtin> | tessera::<builtin>   one of BUILTINS below
 *   global::x | api::a.x | plugin::p.x       a registered middleware factory,
 *                                            called as (config, { strapi, app })
 *   { resolve: './src/x', config }           a factory file, relative to the app
 *
 * An app without the file gets DEFAULT_STACK. Anything unknown stops the boot,
 * naming the file. Resolved once at boot; the HTTP server runs the result in
 * order, inside its error envelope and before the router.
 */
import path from 'node:path';
import type Koa from 'koa';
import type Router from '@koa/router';
import { ConfigurationError } from '@tessera/errors';
import type { App } from '../../app-type';
import { findModule, loadModule } from '../../loader/load-module';
import type { Builtin, BuiltinConfig, BuiltinContext, ResponseHeaders } from './builtin';
import { body } from './body';
import { cors } from './cors';
import { errors } from './errors';
import { favicon } from './favicon';
import { logger } from './logger';
import { poweredBy } from './powered-by';
import { publicFiles } from './public';
import { query } from './query';
import { security } from './security';
import { session } from './session';

const BUILTINS: Record<string, Builtin> = {
  errors,
  security,
  cors,
  poweredBy,
  logger,
  query,
  body,
  session,
  favicon,
  public: publicFiles,
};

export const DEFAULT_STACK = Object.keys(BUILTINS).map((name) => `strapi::${name}`);

const BUILTIN_PREFIXES = ['strapi::', 'tessera::'];

type StackEntry = string | { name?: string; resolve?: string; config?: unknown };

export function globalMiddlewares(app: App, router: Router): Koa.Middleware[] {
  const base = path.join(app.dir, 'config', 'middlewares');
  const file = findModule(base) ?? `${base}.ts`;
  const entries = app.config.middlewares ?? DEFAULT_STACK;
  if (!Array.isArray(entries)) throw new ConfigurationError('must export a list of middlewares (names or { name, config })', file);
  const context: BuiltinContext = { app, router, file };
  const stack: Array<Koa.Middleware | ResponseHeaders> = [];
  for (const entry of entries as StackEntry[]) {
    const resolved = resolveEntry(entry, context);
    const previous = stack[stack.length - 1];
    // Neighbouring header-only built-ins become one step, in their order.
    if (resolved && typeof resolved !== 'function' && previous && typeof previous !== 'function') stack[stack.length - 1] = { headers: [...previous.headers, ...resolved.headers] };
    else if (resolved) stack.push(resolved);
  }
  return stack.map((step) => (typeof step === 'function' ? step : setHeaders(step)));
}

/** Sets the same headers on every response (Node's `setHeader`: Koa's `ctx.set` only adds checks these values pass). */
function setHeaders({ headers }: ResponseHeaders): Koa.Middleware {
  return (ctx, next) => {
    const response = ctx.res;
    for (const [name, value] of headers) response.setHeader(name, value);
    return next();
  };
}

function resolveEntry(entry: StackEntry, context: BuiltinContext): Koa.Middleware | ResponseHeaders | undefined {
  const { name, resolve, config } = typeof entry === 'string' ? { name: entry, resolve: undefined, config: undefined } : (entry ?? {});
  if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) {
    throw new ConfigurationError(`middleware "${name ?? resolve}": config must be an object`, context.file);
  }
  if (typeof resolve === 'string') return fromFactory(loadModule(path.resolve(context.app.dir, resolve)), resolve, config, context);
  if (typeof name !== 'string' || name === '') {
    throw new ConfigurationError(`each middleware is a name or { name, config } / { resolve, config }, got ${JSON.stringify(entry)}`, context.file);
  }
  const prefix = BUILTIN_PREFIXES.find((candidate) => name.startsWith(candidate));
  if (prefix) return fromBuiltin(name, name.slice(prefix.length), (config ?? {}) as BuiltinConfig, context);
  const factory = context.app.middlewares.find(name);
  if (!factory) {
    throw new ConfigurationError(
      `unknown middleware "${name}": use a built-in (${Object.keys(BUILTINS).map((key) => `strapi::${key}`).join(', ')}) or a registered global::, api:: or plugin:: middleware`,
      context.file,
    );
  }
  return fromFactory(factory, name, config, context);
}

function fromBuiltin(name: string, builtinName: string, config: BuiltinConfig, context: BuiltinContext): Koa.Middleware | ResponseHeaders | undefined {
  const builtin = Object.hasOwn(BUILTINS, builtinName) ? BUILTINS[builtinName] : undefined;
  if (!builtin) {
    throw new ConfigurationError(`unknown built-in middleware "${name}" (built-ins: ${Object.keys(BUILTINS).join(', ')})`, context.file);
  }
  const ignored = Object.keys(config).filter((key) => !builtin.keys.includes(key));
  if (ignored.length > 0) context.app.log.warn(`${context.file}: ${name} ignores ${ignored.join(', ')} (not supported by Tessera)`);
  return builtin.create(config, context);
}

function fromFactory(factory: unknown, name: string, config: unknown, context: BuiltinContext): Koa.Middleware {
  if (typeof factory !== 'function') throw new ConfigurationError(`middleware "${name}" must be a function (config, { strapi, app }) => middleware`, context.file);
  const middleware = factory(config ?? {}, { strapi: context.app, app: context.app });
  if (typeof middleware !== 'function') throw new ConfigurationError(`middleware "${name}" must return a Koa middleware function`, context.file);
  return middleware as Koa.Middleware;
}

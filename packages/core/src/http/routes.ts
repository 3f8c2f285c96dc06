/**
 * Mounting routes from the routes registry onto the router. Each route gets
 * one chain: authenticate → authorize the route's action → route middlewares
 * → policies → handler. The action of `article.find` in API `article` is
 * `api::article.article.find`; that is what roles and tokens grant.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import { ConfigurationError, PolicyError } from '../errors';
import type { App } from '../app-type';
import type { AuthState, MiddlewareReference, MountedRoute, PolicyReference, RouteConfig, RouteHandler, RouteMiddleware, RouterDefinition } from '../types';
import { authorizeAction } from '../auth/authorize';
import { routerRows, type RouteRow } from './route-table';

export { restPrefix } from './route-table';

export function mountRouters(app: App, router: Router): void {
  for (const [key, definition] of app.routes.entries()) mountRouter(app, router, key, definition);
}

/** One router's routes (a registry entry; `strapi.server.routes(…)` after mounting calls this directly). */
export function mountRouter(app: App, router: Router, key: string, definition: RouterDefinition): void {
  if ((definition.type ?? 'content-api') === 'admin') {
    app.log.debug(`routes ${key}: admin routes are not served`);
    return;
  }
  for (const row of routerRows(app, key, definition)) mountRoute(app, router, row);
}

function mountRoute(app: App, router: Router, row: RouteRow): void {
  const { namespace, routerKey } = row;
  const route: MountedRoute = { ...row.route, info: row.info };
  const handler = resolveHandler(app, namespace, route, routerKey);
  const chain: Koa.Middleware[] = [authorize(app, route, row.action)];
  for (const reference of route.config?.middlewares ?? []) chain.push(resolveMiddleware(app, namespace, reference) as Koa.Middleware);
  const policies = (route.config?.policies ?? []).map((reference) => resolvePolicy(app, namespace, reference, route));
  if (policies.length > 0) chain.push(runPolicies(app, route, policies));
  chain.push(async (ctx) => {
    const result = await handler(ctx);
    if (ctx.body === undefined && result !== undefined) ctx.body = result;
  });
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
  if (typeof router[method] !== 'function') throw new ConfigurationError(`route ${route.method} ${route.path}: unknown method`, routerKey);
  router[method](row.path, ...chain);
}

function resolveHandler(app: App, namespace: string, route: RouteConfig, routerKey: string): RouteHandler {
  if (typeof route.handler === 'function') return route.handler;
  const parts = route.handler.split('.');
  const actionName = parts.pop()!;
  const controllerUid = route.handler.includes('::') ? parts.join('.') : `${namespace}.${parts.join('.')}`;
  const controller = app.controller(controllerUid) as Record<string, unknown> | undefined;
  const method = controller?.[actionName];
  if (typeof method !== 'function') {
    throw new ConfigurationError(`route ${route.method} ${route.path}: handler "${route.handler}" does not exist`, routerKey);
  }
  return (ctx) => (method as RouteHandler).call(controller, ctx);
}

function authorize(app: App, route: RouteConfig, action: string): Koa.Middleware {
  const auth = route.config?.auth;
  if (auth === false) {
    // No credential is asked for or checked, and the handler runs as the public caller: what it reads
    // through the content API (populate, relation filters, drafts) is what anonymous callers may read.
    return async (ctx, next) => {
      ctx.state.auth = await app.authenticate(undefined);
      await next();
    };
  }
  const scope = auth?.scope ?? [action];
  return async (ctx, next) => {
    const state = await app.authenticate(ctx.get('authorization') || undefined);
    ctx.state.auth = state;
    authorizeAction(state, scope);
    await next();
  };
}

function runPolicies(app: App, route: RouteConfig, policies: Array<{ run: (ctx: Koa.Context) => Promise<boolean | void> }>): Koa.Middleware {
  void app;
  void route;
  return async (ctx, next) => {
    for (const policy of policies) {
      if ((await policy.run(ctx)) === false) throw new PolicyError();
    }
    await next();
  };
}

function resolvePolicy(app: App, namespace: string, reference: PolicyReference, route: MountedRoute): { run: (ctx: Koa.Context) => Promise<boolean | void> } {
  if (typeof reference === 'function') {
    return { run: async (ctx) => reference({ ctx, auth: ctx.state.auth, route }, {}, app.context) };
  }
  const name = typeof reference === 'string' ? reference : reference.name;
  const config = typeof reference === 'string' ? {} : reference.config ?? {};
  const policy = app.policies.find(qualify(namespace, name));
  if (!policy) throw new ConfigurationError(`unknown policy "${name}"`);
  return { run: async (ctx) => policy({ ctx, auth: ctx.state.auth, route }, config, app.context) };
}

function resolveMiddleware(app: App, namespace: string, reference: MiddlewareReference): RouteMiddleware {
  if (typeof reference === 'function') return reference;
  const name = typeof reference === 'string' ? reference : reference.name;
  const config = typeof reference === 'string' ? {} : reference.config ?? {};
  const factory = app.middlewares.find(qualify(namespace, name));
  if (!factory) throw new ConfigurationError(`unknown middleware "${name}"`);
  return factory(config, app.context);
}

/** `global::x`, `api::a.x`, `plugin::p.x` stay; a bare `x` belongs to the router's API. */
function qualify(namespace: string, name: string): string {
  if (name.includes('::')) return name;
  return `${namespace}.${name}`;
}

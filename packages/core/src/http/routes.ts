/**
 * Mounting routes from the routes registry onto the router. Each route gets
 * Strapi v4's chain: authenticate → the route's gate (auth/gate.ts: the one
 * decision, then its policies; GraphQL resolvers run the same gates) → route
 * middlewares → handler. The action of `article.find` in API `article` is
 * `api::article.article.find`; that is what roles and tokens grant. Admin
 * routes (routers of `type: 'admin'`) are authenticated by the admin
 * strategies only and decided by their policies. Policy and middleware names
 * resolve by the one rule of registries/references.ts; the caller is
 * authenticated once per request.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import { ConfigurationError, PolicyError } from '../errors';
import type { App } from '../app-type';
import type { AuthState, MiddlewareReference, MountedRoute, RouteConfig, RouteHandler, RouteMiddleware, RouteOptions, RouterDefinition } from '../types';
import { restRefusal } from '../auth/authorize';
import { Gate, routePolicyContext } from '../auth/gate';
import { Caller } from '../auth/caller';
import { authenticateAdmin } from '../auth/authenticate';
import { findReferenced, namedReference } from '../registries/references';
import { handlerTarget, routerRows, type RouteRow } from './route-table';

export { restPrefix } from './route-table';

export function mountRouters(app: App, router: Router): void {
  for (const [key, definition] of app.routes.entries()) mountRouter(app, router, key, definition);
}

/** One router's routes (a registry entry; `strapi.server.routes(…)` after mounting calls this directly). */
export function mountRouter(app: App, router: Router, key: string, definition: RouterDefinition): void {
  const rows = routerRows(app, key, definition);
  for (const row of rows) mountRoute(app, router, row);
}

function mountRoute(app: App, router: Router, row: RouteRow): void {
  const { namespace, routerKey } = row;
  const route: MountedRoute = { ...row.route, info: row.info };
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'all';
  if (typeof router[method] !== 'function') throw new ConfigurationError(`route ${route.method} ${route.path}: unknown method`, routerKey);
  const admin = route.info.type === 'admin';
  const handler = resolveHandler(app, namespace, route, routerKey);
  const gate = new Gate(app, {
    // Admin routes: the admin strategies authenticate and the policies decide (Strapi's admin strategy has no `verify`).
    requirement: admin ? false : route.config?.auth,
    // A function handler has no action of its own: any credential may call it, as on Strapi.
    ownAction: typeof route.handler === 'string' ? row.action : undefined,
    policies: route.config?.policies,
    namespace,
    where: `route ${route.method} ${route.path}`,
    listedAs: `${route.method} ${row.path}`,
  });
  const chain: Koa.Middleware[] = [guard(app, route, gate)];
  if (gate.hasPolicies) chain.push(runPolicies(gate, route));
  for (const reference of route.config?.middlewares ?? []) chain.push(resolveMiddleware(app, namespace, reference, route) as Koa.Middleware);
  chain.push(async (ctx) => {
    const result = await handler(ctx, nothingAfter);
    if (ctx.body === undefined && result !== undefined) ctx.body = result;
    guardPromiseBody(app, ctx, route);
  });
  router[method](row.path, ...chain);
}


/**
 * A handler that sets a promise as the body without awaiting it (strapi-plugin-redirects' `ctx.body =
 * service.find()`) is answered as Koa answers it on Strapi, `{}`; its rejection is logged here instead of
 * ending the process as an unhandled rejection, which one public request could otherwise do.
 */
function guardPromiseBody(app: App, ctx: Koa.Context, route: MountedRoute): void {
  const body: unknown = ctx.body;
  if (typeof body !== 'object' || body === null || typeof (body as PromiseLike<unknown>).then !== 'function') return;
  Promise.resolve(body as PromiseLike<unknown>).catch((error: unknown) =>
    app.log.error(`route ${route.method} ${route.path}: the body its handler left unawaited failed`, error),
  );
}

/** The `next` of a route's last handler: the handler ends the chain. */
const nothingAfter = async (): Promise<void> => undefined;

function resolveHandler(app: App, namespace: string, route: RouteConfig, routerKey: string): RouteHandler {
  if (typeof route.handler === 'function') return route.handler;
  if (Array.isArray(route.handler)) return handlerList(route, routerKey);
  const { controllerUid, actionName } = handlerTarget(namespace, route.handler);
  const controller = app.controller(controllerUid) as Record<string, unknown> | undefined;
  const method = controller?.[actionName];
  if (typeof method !== 'function') {
    throw new ConfigurationError(`route ${route.method} ${route.path}: handler "${route.handler}" does not exist`, routerKey);
  }
  return (ctx, next) => (method as RouteHandler).call(controller, ctx, next);
}

/**
 * A list of handler functions, run as Koa runs middlewares: each gets a `next` that runs the following one, and the
 * list's answer is the first one's return value (Strapi v4 composes a route's handler list with koa-compose).
 */
function handlerList(route: RouteConfig, routerKey: string): RouteHandler {
  const list = route.handler as unknown[];
  if (list.length === 0 || list.some((item) => typeof item !== 'function')) {
    throw new ConfigurationError(`route ${route.method} ${route.path}: a handler list holds functions only`, routerKey);
  }
  const handlers = list as RouteHandler[];
  return (ctx, next) => {
    let last = -1;
    const run = async (at: number): Promise<unknown> => {
      if (at <= last) throw new Error('next() called multiple times');
      last = at;
      return at === handlers.length ? next() : handlers[at]!(ctx, () => run(at + 1));
    };
    return run(0);
  };
}

/**
 * Authentication and authorization, answered as Strapi's route chain answers them: a refusal is the route's
 * own answer (`ctx.unauthorized()` / `ctx.forbidden()` in Strapi), a 401 or 403 with the error envelope as the
 * body, which the app's own middlewares see as `ctx.status`/`ctx.body` once the route returns and may rewrite
 * (recorded: plugins/users-permissions/test/strapi-route-auth.json). Authentication's and authorization's
 * refusals keep their wording ("Missing or invalid credentials", "Token expired"); one raised after them (a
 * policy refusing, a handler throwing ForbiddenError, PolicyError or UnauthorizedError) is a bare "Forbidden" or
 * "Unauthorized", whatever its message. Any other error a handler throws passes on to the error middleware.
 * `ownAction` is the route's action when its handler names one (a function handler has no scope of its own:
 * any credential may call it, as on Strapi).
 */
function guard(app: App, route: MountedRoute, gate: Gate): Koa.Middleware {
  const auth = route.config?.auth;
  // `ctx.state.route`: the matched route with its `info`, and `config` always an object, set first as Strapi's route
  // chain sets it. Route middlewares read their own settings there; the config object is the registered one, so what
  // a plugin wrote into it during register is there.
  const routeState = { ...route, config: route.config ?? {} };
  const admin = route.info.type === 'admin' && auth !== false;
  return async (ctx, next) => {
    ctx.state.route = routeState;
    try {
      if (admin) await authenticateAdminRoute(app, ctx);
      else await authenticateContentApiRoute(app, ctx, auth);
      const refusal = gate.refusal(Caller.of(ctx.state.auth as AuthState));
      if (refusal !== undefined) throw restRefusal(refusal);
    } catch (error) {
      if (!answerRefusal(ctx, error, false)) throw error;
      return;
    }
    try {
      await next();
    } catch (error) {
      if (!answerRefusal(ctx, error, true)) throw error;
    }
  };
}

/**
 * A content-API route (and an admin route under `auth: false`): the content-API strategies say who calls. No
 * credential is asked for or checked under `auth: false`, and the handler runs as the public caller: what it reads
 * through the content API (populate, relation filters, drafts) is what anonymous callers may read.
 */
async function authenticateContentApiRoute(app: App, ctx: Koa.Context, auth: RouteOptions['auth']): Promise<void> {
  // Node keeps request header names lower-cased (what ctx.get would look up).
  const state = await app.authenticate(auth === false ? undefined : ctx.req.headers.authorization || undefined);
  ctx.state.auth = state;
  if (auth !== false && state.user) ctx.state.user = state.user;
}

/**
 * An admin route (Strapi's authenticate step for type `admin`): the admin strategies only say who calls, and put on
 * `ctx.state` what Strapi's admin strategy puts there (`user`, `isAuthenticated`, `auth`, `userAbility`). Nothing is
 * authorized here (Strapi's admin strategy has no `verify`): the route's policies decide
 * (`admin::isAuthenticatedAdmin`, `admin::hasPermissions`).
 */
async function authenticateAdminRoute(app: App, ctx: Koa.Context): Promise<void> {
  const state = await authenticateAdmin(ctx.req.headers.authorization || undefined, app.adminAuthStrategies.values());
  Object.assign(ctx.state, state.requestState ?? {});
  ctx.state.auth = state;
  ctx.state.user = state.user;
  ctx.state.isAuthenticated = true;
}

/** Answers a 401 or 403 refusal as the route's own answer; false for any other error. `bare`: Strapi's wording after authorization. */
function answerRefusal(ctx: Koa.Context, error: unknown, bare: boolean): boolean {
  const name = error instanceof Error ? error.name : undefined;
  const refusal = name === 'UnauthorizedError' ? UNAUTHORIZED : name === 'ForbiddenError' || name === 'PolicyError' ? FORBIDDEN : undefined;
  if (!refusal) return false;
  const own = error as Error & { details?: unknown };
  const message = bare ? refusal.message : own.message;
  ctx.status = refusal.status;
  ctx.body = { data: null, error: { status: refusal.status, name: refusal.name, message, details: bare ? {} : own.details ?? {} } };
  return true;
}

const UNAUTHORIZED = { status: 401, name: 'UnauthorizedError', message: 'Unauthorized' };
const FORBIDDEN = { status: 403, name: 'ForbiddenError', message: 'Forbidden' };

/** The route's policies, on Strapi's policy context (auth/gate.ts); a refusal is Strapi's PolicyError. */
function runPolicies(gate: Gate, route: MountedRoute): Koa.Middleware {
  return async (ctx, next) => {
    if (!(await gate.admits(routePolicyContext(ctx, route)))) throw new PolicyError();
    await next();
  };
}

function resolveMiddleware(app: App, namespace: string, reference: MiddlewareReference, route: RouteConfig): RouteMiddleware {
  if (typeof reference === 'function') return reference;
  const { name, config } = namedReference(reference);
  return findReferenced(app.middlewares, name, namespace, `route ${route.method} ${route.path}`)(config, app.context);
}

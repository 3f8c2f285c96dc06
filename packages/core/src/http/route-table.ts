/**
 * Every route the app serves, read from the routes registry the way
 * `mountRouters` mounts them: full path, action (what roles and tokens
 * grant), auth, policies and middlewares. One source for mounting, for
 * `tessera routes`, the development route index and the OpenAPI document.
 */
import type { App } from '../app-type';
import { getConfig } from '../config/load-config';
import type { Ability } from '../types';
import type { HttpMethod, MiddlewareReference, PolicyReference, RouteConfig, RouteInfo, RouterDefinition } from '../types';

/** `api.rest.prefix`, `/api` unless the app sets it (Strapi v4's key and default): where content-API routes are served. */
export function restPrefix(app: App): string {
  let prefix = String(getConfig<unknown>(app.config, 'api.rest.prefix', '/api'));
  // Trailing slashes cut in a loop: `/\/+$/` backtracks on a long run of slashes (the ReDoS scan refuses it).
  while (prefix.endsWith('/')) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * Where each router type is served: content-API routes under `api.rest.prefix`, raw routes and admin routes at the
 * root (Strapi v4 mounts a plugin's admin routes at `/<plugin>/…`, the admin plugin's at `/admin/…`).
 */
function routerBase(app: App, type: NonNullable<RouterDefinition['type']>): string {
  return type === 'content-api' ? restPrefix(app) : '';
}

export interface RouteRow {
  method: HttpMethod;
  /** As mounted: `/api/articles/:id`. */
  path: string;
  /** As declared, for policies (`route.path`): `/articles/:id`. */
  route: RouteConfig;
  info: RouteInfo;
  /** `api::article`, `plugin::users-permissions`, `global`. */
  namespace: string;
  /** The router's registry key, for error messages. */
  routerKey: string;
  /** `api::article.article.find`; for an inline function handler, `<namespace>.<method>:<path>` (a name only: it requires nothing). */
  action: string;
  /** `'<controller>.<action>'`, `(function)` or `(functions)` (a handler list). */
  handler: string;
  /**
   * `false`: no credential checked; else the actions a caller needs every one of (none: any credential). An admin
   * route asks for a signed-in admin (`[]`): its policies say which actions.
   */
  auth: false | string[];
  policies: string[];
  middlewares: string[];
}

export function routeTable(app: App): RouteRow[] {
  return app.routes.entries().flatMap(([routerKey, definition]) => routerRows(app, routerKey, definition));
}

/** The rows of one router. */
export function routerRows(app: App, routerKey: string, definition: RouterDefinition): RouteRow[] {
  const rows: RouteRow[] = [];
  const type = definition.type ?? 'content-api';
  const base = routerBase(app, type);
  const routes = typeof definition.routes === 'function' ? definition.routes(app.context) : definition.routes;
  const namespace = namespaceOf(routerKey);
  const info = routeInfo(namespace, type);
  // An app without Strapi's admin (no `@strapi/admin`: no admin strategy) runs API-only: nobody could call an admin
  // route but its public ones (`auth: false`, a plugin's own pages), so only those are served; the rest, and the admin
  // policies they name (registered by the admin plugin only), are left out.
  const apiOnly = type === 'admin' && app.adminAuthStrategies.values().length === 0;
  for (const route of routes) {
    if (apiOnly && route.config?.auth !== false) continue;
    // A route's own `config.prefix` replaces its router's (Strapi v4: users-permissions mounts `/auth/local` with `prefix: ''`).
    const prefix = `${base}${route.config?.prefix ?? definition.prefix ?? ''}`;
    const action = actionOf(namespace, route);
    const auth = route.config?.auth;
    rows.push({
      method: route.method,
      path: joinRoutePath(prefix, route.path),
      route,
      info,
      namespace,
      routerKey,
      action,
      handler: typeof route.handler === 'string' ? route.handler : Array.isArray(route.handler) ? '(functions)' : '(function)',
      // A route authorizing each operation itself (GraphQL) shows as open: it has no action of its own.
      // A function handler has no action of its own to require (Strapi gives it no scope): any credential.
      auth: auth === false || auth === 'per-operation' ? false : type === 'admin' ? [] : auth?.scope ?? (typeof route.handler === 'string' ? [action] : []),
      policies: (route.config?.policies ?? []).map(referenceName),
      middlewares: (route.config?.middlewares ?? []).map(referenceName),
    });
  }
  return rows;
}

/**
 * A route's path under its prefix, as @koa/router's `setPrefix` joins them: `/` under a prefix is the prefix itself
 * (Strapi v4's plugin `GET /` route answers `/api/<plugin>`; the non-strict match also takes `/api/<plugin>/`).
 */
function joinRoutePath(prefix: string, path: string): string {
  return path === '/' && prefix !== '' ? prefix : `${prefix}${path}`;
}

/**
 * The controller and action a handler string names: `article.find` in `api::article` is `api::article.article`'s
 * `find`; a qualified `plugin::p.c.a` names its own controller. The one rule for mounting a route and for its action.
 */
export function handlerTarget(namespace: string, handler: string): { controllerUid: string; actionName: string } {
  const parts = handler.split('.');
  const actionName = parts.pop()!;
  const controllerUid = handler.includes('::') ? parts.join('.') : `${namespace}.${parts.join('.')}`;
  return { controllerUid, actionName };
}

/**
 * The action roles and tokens grant: `<uid>.<action>` (`api::article.article.find`). The one rule for every transport:
 * a route's controller and handler action, a GraphQL resolver's content type and operation.
 */
export function contentAction(uid: string, action: string): string {
  return `${uid}.${action}`;
}

/** The action a handler string grants (`article.find` in `api::article` → `api::article.article.find`). */
export function routeHandlerAction(namespace: string, handler: string): string {
  const { controllerUid, actionName } = handlerTarget(namespace, handler);
  return contentAction(controllerUid, actionName);
}

/** What roles and tokens grant for a route (contentAction); a function handler's is its method and path (shown, never required). */
function actionOf(namespace: string, route: RouteConfig): string {
  if (typeof route.handler !== 'string') return `${namespace}.${route.method.toLowerCase()}:${route.path}`;
  return routeHandlerAction(namespace, route.handler);
}

function referenceName(reference: PolicyReference | MiddlewareReference): string {
  if (typeof reference === 'function') return '(function)';
  return typeof reference === 'string' ? reference : reference.name;
}

/** `{ type, apiName: 'article' }` for `api::article`, `{ type, pluginName: 'p' }` for `plugin::p`. */
function routeInfo(namespace: string, type: RouteInfo['type']): RouteInfo {
  const [scope, name] = namespace.split('::');
  if (scope === 'api') return { type, apiName: name };
  if (scope === 'plugin') return { type, pluginName: name };
  return { type };
}

function namespaceOf(routerKey: string): string {
  // `api::article.article` → `api::article`; `plugin::users-permissions.auth` → `plugin::users-permissions`
  const [scope, rest = ''] = routerKey.split('::');
  return `${scope}::${rest.split('.')[0]}`;
}

/** One row as `tessera routes` and the development index show it. */
export interface RouteSummary {
  method: string;
  path: string;
  handler: string;
  action: string;
  /** `none`: no credential checked; `public`: the anonymous caller may call it; `credentials`: a token or JWT with `actions`; `admin`: a signed-in admin. */
  auth: 'none' | 'public' | 'credentials' | 'admin';
  actions: string[];
  policies: string[];
  middlewares: string[];
}

export function summarize(rows: RouteRow[], publicAbility: Ability): RouteSummary[] {
  return rows.map((row) => ({
    method: row.method,
    path: row.path,
    handler: row.handler,
    action: row.action,
    auth: row.auth === false ? 'none' : row.info.type === 'admin' ? 'admin' : row.auth.length > 0 && row.auth.every((action) => publicAbility.can(action)) ? 'public' : 'credentials',
    actions: row.auth === false ? [] : row.auth,
    policies: row.policies,
    middlewares: row.middlewares,
  }));
}

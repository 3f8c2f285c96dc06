/**
 * The admin API routes served so far, at Strapi 4.26.2's paths under
 * `/admin`, declared as its route files declare them (`auth: false` for the
 * sign-in routes; `admin::isAuthenticatedAdmin` and
 * `{ name: 'admin::hasPermissions', config: { actions } }` policies for the
 * others — Strapi leaves the first out on the two delete routes, whose
 * router authenticates them anyway).
 *
 * `served()` is how they run until the kernel authenticates admin routers
 * with the admin strategy: every route is open to the content API's guard
 * (`auth: false`) and the admin caller is decided by this plugin's route
 * middlewares — `admin::isAuthenticatedAdmin` (admin-auth.ts) and
 * `admin::hasPermissions` (permissions.ts) — never by the content API's
 * strategies, so the two kinds of credential cannot stand in for each other.
 * `tessera routes` lists them with those middlewares.
 */
import type { MiddlewareReference, PolicyReference, RouteConfig } from '@tessera/core';

export const AUTHENTICATED = 'admin::isAuthenticatedAdmin';
export const HAS_PERMISSIONS = 'admin::hasPermissions';
export const RATE_LIMIT = 'admin::rateLimit';

type Method = RouteConfig['method'];

const open = (method: Method, path: string, handler: string, middlewares: string[] = []): RouteConfig => ({
  method,
  path,
  handler,
  config: middlewares.length > 0 ? { auth: false, middlewares } : { auth: false },
});
const signedIn = (method: Method, path: string, handler: string): RouteConfig => ({ method, path, handler, config: { policies: [AUTHENTICATED] } });
const permitted = (method: Method, path: string, handler: string, action: string, authenticated = true): RouteConfig => ({
  method,
  path,
  handler,
  config: { policies: [...(authenticated ? [AUTHENTICATED] : []), { name: HAS_PERMISSIONS, config: { actions: [action] } }] },
});

/** Strapi 4.26.2's declarations (its `admin`, `authentication` and `users` route files), in their order. */
export const STRAPI_ADMIN_ROUTES: RouteConfig[] = [
  open('GET', '/init', 'admin.init'),
  open('GET', '/project-type', 'admin.getProjectType'),
  signedIn('GET', '/project-settings', 'admin.getProjectSettings'),
  signedIn('GET', '/information', 'admin.information'),
  signedIn('GET', '/telemetry-properties', 'admin.telemetryProperties'),
  signedIn('GET', '/plugins', 'admin.plugins'),
  open('POST', '/login', 'authentication.login', [RATE_LIMIT]),
  open('POST', '/renew-token', 'authentication.renewToken'),
  open('POST', '/register-admin', 'authentication.registerAdmin'),
  open('GET', '/registration-info', 'authentication.registrationInfo'),
  open('POST', '/register', 'authentication.register'),
  open('POST', '/forgot-password', 'authentication.forgotPassword'),
  open('POST', '/reset-password', 'authentication.resetPassword'),
  signedIn('POST', '/logout', 'authentication.logout'),
  signedIn('GET', '/users/me', 'authenticated-user.getMe'),
  signedIn('PUT', '/users/me', 'authenticated-user.updateMe'),
  signedIn('GET', '/users/me/permissions', 'authenticated-user.getOwnPermissions'),
  permitted('POST', '/users', 'user.create', 'admin::users.create'),
  permitted('GET', '/users', 'user.find', 'admin::users.read'),
  permitted('GET', '/users/:id', 'user.findOne', 'admin::users.read'),
  permitted('PUT', '/users/:id', 'user.update', 'admin::users.update'),
  permitted('DELETE', '/users/:id', 'user.deleteOne', 'admin::users.delete', false),
  permitted('POST', '/users/batch-delete', 'user.deleteMany', 'admin::users.delete', false),
];

/** A route as it runs today: its policies become this plugin's route middlewares, the admin caller checked first. */
export function served(route: RouteConfig): RouteConfig {
  const { policies = [], ...config } = route.config ?? {};
  if (config.auth === false) return route;
  const middlewares: MiddlewareReference[] = [AUTHENTICATED];
  for (const policy of policies as PolicyReference[]) {
    if (typeof policy === 'object' && policy.name === HAS_PERMISSIONS) middlewares.push({ name: HAS_PERMISSIONS, config: policy.config });
  }
  return { ...route, config: { ...config, auth: false, middlewares: [...middlewares, ...(config.middlewares ?? [])] } };
}

export const ADMIN_ROUTES: RouteConfig[] = STRAPI_ADMIN_ROUTES.map(served);

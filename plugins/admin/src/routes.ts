/**
 * The admin API routes served so far, at Strapi 4.26.2's paths under `/admin`.
 * Every route is open to the kernel's content-API guard (`auth: false`): admin
 * callers are decided by this plugin's `admin::isAuthenticatedAdmin` route
 * middleware (admin-auth.ts), never by the content API's strategies, so the two
 * kinds of credential cannot stand in for each other. `tessera routes` lists
 * them with that middleware.
 */
import type { RouteConfig } from '@tessera/core';
import { API_TOKEN_ROUTES, CONTENT_API_ROUTES, TRANSFER_ROUTES } from './api-tokens/routes';
import { WEBHOOK_ROUTES } from './webhooks/routes';

export const AUTHENTICATED = 'admin::isAuthenticatedAdmin';
export const RATE_LIMIT = 'admin::rateLimit';

const open = (method: RouteConfig['method'], path: string, handler: string, middlewares: string[] = []): RouteConfig => ({
  method,
  path,
  handler,
  config: { auth: false, middlewares },
});
const signedIn = (method: RouteConfig['method'], path: string, handler: string): RouteConfig => open(method, path, handler, [AUTHENTICATED]);

/**
 * Until admin routes pass the kernel's gate (branch admin-rbac): a route declared as Strapi declares it (policies
 * `admin::isAuthenticatedAdmin`, `admin::hasPermissions`) served through this plugin's session middleware instead.
 */
function throughSession(route: RouteConfig): RouteConfig {
  if (route.config?.auth === false) return route;
  return { ...route, config: { auth: false, middlewares: [AUTHENTICATED, ...(route.config?.middlewares ?? [])] } };
}

export const ADMIN_ROUTES: RouteConfig[] = [
  open('GET', '/init', 'admin.init'),
  open('GET', '/project-type', 'admin.getProjectType'),
  signedIn('GET', '/project-settings', 'admin.getProjectSettings'),
  signedIn('GET', '/information', 'admin.information'),
  signedIn('GET', '/telemetry-properties', 'admin.telemetryProperties'),
  signedIn('GET', '/plugins', 'admin.plugins'),
  open('POST', '/login', 'authentication.login', [RATE_LIMIT]),
  open('POST', '/renew-token', 'authentication.renewToken'),
  open('POST', '/register-admin', 'authentication.registerAdmin'),
  signedIn('POST', '/logout', 'authentication.logout'),
  signedIn('GET', '/users/me', 'authenticated-user.getMe'),
  signedIn('PUT', '/users/me', 'authenticated-user.updateMe'),
  signedIn('GET', '/users/me/permissions', 'authenticated-user.getOwnPermissions'),
  ...[...API_TOKEN_ROUTES, ...CONTENT_API_ROUTES, ...TRANSFER_ROUTES, ...WEBHOOK_ROUTES].map(throughSession),
];

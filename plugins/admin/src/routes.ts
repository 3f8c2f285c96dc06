/**
 * The admin API routes served so far, at Strapi 4.26.2's paths under `/admin`,
 * declared as Strapi's admin route files declare them: the router is of type
 * `admin`, so the kernel authenticates its routes with the admin strategy only
 * (admin-auth.ts) and the policies decide (policies.ts); sign-in routes are
 * `auth: false`. `tessera routes` lists them with their policies. Strapi
 * names no `admin::isAuthenticatedAdmin` on the two user delete routes
 * (`onlyPermitted`): the admin strategy refuses anyone else there anyway.
 */
import type { PolicyReference, RouteConfig } from '@tessera/core';
import { API_TOKEN_ROUTES, CONTENT_API_ROUTES, TRANSFER_ROUTES } from './api-tokens/routes';
import { HAS_PERMISSIONS, IS_AUTHENTICATED_ADMIN } from './policies';
import { WEBHOOK_ROUTES } from './webhooks/routes';

export const RATE_LIMIT = 'admin::rateLimit';

const open = (method: RouteConfig['method'], path: string, handler: string, middlewares: string[] = []): RouteConfig => ({
  method,
  path,
  handler,
  config: { auth: false, middlewares },
});

/** A signed-in admin, holding every one of `actions`. */
export const signedIn = (method: RouteConfig['method'], path: string, handler: string, actions: string[] = []): RouteConfig => {
  const policies: PolicyReference[] = [IS_AUTHENTICATED_ADMIN];
  if (actions.length > 0) policies.push({ name: HAS_PERMISSIONS, config: { actions } });
  return { method, path, handler, config: { policies } };
};

/** Strapi's two delete routes: `admin::hasPermissions` alone. */
const onlyPermitted = (method: RouteConfig['method'], path: string, handler: string, actions: string[]): RouteConfig => ({
  method,
  path,
  handler,
  config: { policies: [{ name: HAS_PERMISSIONS, config: { actions } }] },
});

/** Strapi 4.26.2's `admin`, `authentication` and `users` route files, in their order. */
export const ADMIN_ROUTES: RouteConfig[] = [
  open('GET', '/init', 'admin.init'),
  open('GET', '/project-type', 'admin.getProjectType'),
  signedIn('GET', '/project-settings', 'admin.getProjectSettings', ['admin::project-settings.read']),
  signedIn('POST', '/project-settings', 'admin.updateProjectSettings', ['admin::project-settings.update']),
  signedIn('GET', '/information', 'admin.information'),
  signedIn('GET', '/telemetry-properties', 'admin.telemetryProperties'),
  signedIn('GET', '/plugins', 'admin.plugins', ['admin::marketplace.read']),
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
  signedIn('POST', '/users', 'user.create', ['admin::users.create']),
  signedIn('GET', '/users', 'user.find', ['admin::users.read']),
  signedIn('GET', '/users/:id', 'user.findOne', ['admin::users.read']),
  signedIn('PUT', '/users/:id', 'user.update', ['admin::users.update']),
  onlyPermitted('DELETE', '/users/:id', 'user.deleteOne', ['admin::users.delete']),
  onlyPermitted('POST', '/users/batch-delete', 'user.deleteMany', ['admin::users.delete']),
  signedIn('GET', '/permissions', 'permission.getAll'),
  signedIn('POST', '/permissions/check', 'permission.check'),
  signedIn('GET', '/roles/:id/permissions', 'role.getPermissions', ['admin::roles.read']),
  signedIn('PUT', '/roles/:id/permissions', 'role.updatePermissions', ['admin::roles.update']),
  signedIn('GET', '/roles/:id', 'role.findOne', ['admin::roles.read']),
  signedIn('GET', '/roles', 'role.findAll', ['admin::roles.read']),
  signedIn('POST', '/roles', 'role.create', ['admin::roles.create']),
  signedIn('PUT', '/roles/:id', 'role.update', ['admin::roles.update']),
  signedIn('DELETE', '/roles/:id', 'role.deleteOne', ['admin::roles.delete']),
  signedIn('POST', '/roles/batch-delete', 'role.deleteMany', ['admin::roles.delete']),
  ...WEBHOOK_ROUTES,
  ...API_TOKEN_ROUTES,
  ...CONTENT_API_ROUTES,
  ...TRANSFER_ROUTES,
];

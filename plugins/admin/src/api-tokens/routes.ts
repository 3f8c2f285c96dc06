/**
 * The API-token, content-API and transfer-token admin routes, declared as
 * `@strapi/admin` 4.26.2's route files declare them: signed-in admins
 * (`admin::isAuthenticatedAdmin`) holding the route's action
 * (`admin::hasPermissions`). Transfer-token routes carry Strapi's
 * `admin::data-transfer` middleware, which opens them only when the app has a
 * transfer salt, as Strapi does (transfer-tokens/availability.ts).
 */
import type { RouteConfig } from '@tessera/core';
import { HAS_PERMISSIONS, IS_AUTHENTICATED_ADMIN } from '../policies';

export const DATA_TRANSFER = 'admin::data-transfer';

/** A route for signed-in admins holding `actions` (none: any signed-in admin), with Strapi's route middlewares if any. */
export function adminRoute(method: RouteConfig['method'], path: string, handler: string, actions?: string[], middlewares?: string[]): RouteConfig {
  const config: RouteConfig['config'] = {
    ...(middlewares ? { middlewares } : {}),
    policies: [IS_AUTHENTICATED_ADMIN, ...(actions ? [{ name: HAS_PERMISSIONS, config: { actions } }] : [])],
  };
  return { method, path, handler, config };
}

export const API_TOKEN_ROUTES: RouteConfig[] = [
  adminRoute('POST', '/api-tokens', 'api-token.create', ['admin::api-tokens.create']),
  adminRoute('GET', '/api-tokens', 'api-token.list', ['admin::api-tokens.read']),
  adminRoute('DELETE', '/api-tokens/:id', 'api-token.revoke', ['admin::api-tokens.delete']),
  adminRoute('GET', '/api-tokens/:id', 'api-token.get', ['admin::api-tokens.read']),
  adminRoute('PUT', '/api-tokens/:id', 'api-token.update', ['admin::api-tokens.update']),
  adminRoute('POST', '/api-tokens/:id/regenerate', 'api-token.regenerate', ['admin::api-tokens.regenerate']),
];

export const CONTENT_API_ROUTES: RouteConfig[] = [
  adminRoute('GET', '/content-api/permissions', 'content-api.getPermissions'),
  adminRoute('GET', '/content-api/routes', 'content-api.getRoutes'),
];

const transferToken = (method: RouteConfig['method'], path: string, handler: string, action: string) =>
  adminRoute(method, path, handler, [`admin::transfer.tokens.${action}`], [DATA_TRANSFER]);

export const TRANSFER_ROUTES: RouteConfig[] = [
  // Strapi authenticates these two with transfer tokens only (its `data-transfer` strategy), never an admin session;
  // Tessera has no `strapi transfer` to serve there: every caller is refused as that strategy refuses an unknown token
  // (transfer-tokens/controller.ts).
  { method: 'GET', path: '/transfer/runner/push', handler: 'transfer.runner-push', config: { auth: false } },
  { method: 'GET', path: '/transfer/runner/pull', handler: 'transfer.runner-pull', config: { auth: false } },
  transferToken('POST', '/transfer/tokens', 'transfer.token-create', 'create'),
  transferToken('GET', '/transfer/tokens', 'transfer.token-list', 'read'),
  transferToken('DELETE', '/transfer/tokens/:id', 'transfer.token-revoke', 'delete'),
  transferToken('GET', '/transfer/tokens/:id', 'transfer.token-getById', 'read'),
  transferToken('PUT', '/transfer/tokens/:id', 'transfer.token-update', 'update'),
  transferToken('POST', '/transfer/tokens/:id/regenerate', 'transfer.token-regenerate', 'regenerate'),
];

/**
 * Data transfer (`strapi transfer` between two servers) is not in Tessera.
 * Its admin routes answer as Strapi 4.26.2 answers with transfer turned off
 * (`STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true`, recorded): a signed-in admin
 * gets a 404 from the `admin::data-transfer` middleware on the token routes,
 * and the runner routes refuse every caller with a 401 (no transfer token
 * exists to authenticate them). Never a 500.
 *
 * Strapi registers the transfer-token actions whether transfer is on or not
 * (the peer's Super Admin, transfer off, passes `admin::hasPermissions` and
 * gets the 404), so they are registered here too: the role editor lists
 * them, and the routes' policies name actions that exist.
 */
import type Koa from 'koa';
import type { AdminActionDefinition, App, RouteMiddleware } from '@tessera/core';

const transferAction = (verb: string, displayName: string, subCategory = 'general'): AdminActionDefinition => ({
  uid: `transfer.tokens.${verb}`,
  displayName,
  pluginName: 'admin',
  section: 'settings',
  category: 'transfer tokens',
  subCategory,
});

/** Strapi 4.26.2's transfer-token actions, in its order (after the project settings'). */
export const TRANSFER_TOKEN_ACTIONS: AdminActionDefinition[] = [
  transferAction('access', 'Access the transfer tokens settings page', 'transfer tokens'),
  transferAction('create', 'Create (generate)'),
  transferAction('read', 'Read'),
  transferAction('update', 'Update'),
  transferAction('regenerate', 'Regenerate'),
  transferAction('delete', 'Delete (revoke)'),
];

/** In the admin plugin's register, after the catalogue's actions. */
export function registerTransferActions(app: App): void {
  for (const action of TRANSFER_TOKEN_ACTIONS) app.admin.services.permission.actionProvider.register(structuredClone(action));
}

function answer(ctx: Koa.Context, status: 401 | 404): void {
  ctx.status = status;
  ctx.body =
    status === 404
      ? { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }
      : { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };
}

/** `admin::data-transfer`: transfer is off, so the route's handler is never reached. */
export function dataTransferOff(): RouteMiddleware {
  return (ctx: Koa.Context) => answer(ctx, 404);
}

const off = (ctx: Koa.Context) => answer(ctx, 404);
const noTransferToken = (ctx: Koa.Context) => answer(ctx, 401);

/** The `transfer` controller: the token handlers sit behind `admin::data-transfer`; the runners have no caller to serve. */
export const transferController = {
  'runner-push': noTransferToken,
  'runner-pull': noTransferToken,
  'token-create': off,
  'token-list': off,
  'token-revoke': off,
  'token-getById': off,
  'token-update': off,
  'token-regenerate': off,
};

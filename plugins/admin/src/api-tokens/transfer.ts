/**
 * Data transfer (`strapi transfer` between two servers) is not in Tessera.
 * Its admin routes answer as Strapi 4.26.2 answers with transfer turned off
 * (`STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true`, recorded): a signed-in admin
 * gets a 404 from the `admin::data-transfer` middleware on the token routes,
 * and the runner routes refuse every caller with a 401 (no transfer token
 * exists to authenticate them). Never a 500.
 */
import type Koa from 'koa';
import type { RouteMiddleware } from '@tessera/core';

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

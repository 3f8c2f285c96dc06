/**
 * Whether the transfer-token routes are open, as `@strapi/admin` 4.26.2's `admin::data-transfer` route middleware
 * decides it: open when the app has a transfer-token salt (`config/admin` `transfer.token.salt`, which
 * create-strapi-app's template sets from TRANSFER_TOKEN_SALT) and STRAPI_DISABLE_REMOTE_DATA_TRANSFER is not true;
 * without a salt Strapi's 501 `INVALID_TOKEN_SALT`, and turned off from the environment a 404 (both recorded).
 */
import type Koa from 'koa';
import type { App, RouteMiddleware } from '@tessera/core';

/** The salt transfer-token access keys are hashed with, or undefined when the app has none. */
export function transferTokenSalt(app: App): string | undefined {
  const salt = app.config.get<unknown>('admin.transfer.token.salt');
  return typeof salt === 'string' && salt.length > 0 ? salt : undefined;
}

function disabledFromEnv(app: App): boolean {
  return app.env.bool('STRAPI_DISABLE_REMOTE_DATA_TRANSFER', false);
}

export function dataTransferAvailability(app: App): RouteMiddleware {
  return async (ctx: Koa.Context, next: () => Promise<unknown>) => {
    const salt = transferTokenSalt(app);
    if (salt !== undefined && !disabledFromEnv(app)) return next();
    if (salt === undefined) {
      ctx.status = 501;
      ctx.body = {
        data: null,
        error: {
          status: 501,
          name: 'NotImplementedError',
          message: 'The server configuration for data transfer is invalid. Please contact your server administrator.',
          details: { code: 'INVALID_TOKEN_SALT' },
        },
      };
      return;
    }
    ctx.status = 404;
    ctx.body = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
  };
}

/**
 * The `transfer` controller of `@strapi/admin` 4.26.2: the Settings → Transfer Tokens page's list, create (the access
 * key answered once), get, update, regenerate and delete, answered as Strapi answers them (recorded). The routes sit
 * behind `admin::data-transfer` (availability.ts), so a handler runs only when the app has a transfer salt. The two
 * runner routes are `strapi transfer`'s websocket ends, which Tessera has not: they refuse every caller as Strapi's
 * transfer-token strategy refuses a request without a valid token.
 */
import type Koa from 'koa';
import { ApplicationError, ValidationError } from '@tessera/errors';
import { requestBody, type App } from '@tessera/core';
import { checkBody } from '../body-rules';
import { rowId } from '../api-tokens/controller';
import { transferTokenSalt } from './availability';
import { transferTokenService, type NewTransferToken, type TransferTokenService } from './service';
import { CREATE_TRANSFER_TOKEN, transferCreationAttributes, transferUpdateAttributes, UPDATE_TRANSFER_TOKEN, type TransferTokenAttributes } from './validation';

/** Budgets Strapi has not: a name or description longer than its column, or a permission list longer than any use. */
const MAX_TEXT = 255;
const MAX_PERMISSIONS = 10;

function answerError(ctx: Koa.Context, status: 401 | 404, name: string, message: string): void {
  ctx.status = status;
  ctx.body = { data: null, error: { status, name, message, details: {} } };
}
const notFound = (ctx: Koa.Context) => answerError(ctx, 404, 'NotFoundError', 'Transfer token not found');
const noTransferToken = (ctx: Koa.Context) => answerError(ctx, 401, 'UnauthorizedError', 'Missing or invalid credentials');

function withinBudgets(attributes: TransferTokenAttributes): void {
  for (const field of ['name', 'description'] as const) {
    const value = attributes[field];
    if (typeof value === 'string' && value.length > MAX_TEXT) throw ValidationError.forField([field], `${field} must be at most ${MAX_TEXT} characters`);
  }
  if (Array.isArray(attributes.permissions) && attributes.permissions.length > MAX_PERMISSIONS) {
    throw ValidationError.forField(['permissions'], `permissions must have less than or equal to ${MAX_PERMISSIONS} items`);
  }
}

export function transferController(app: App) {
  /** Made per request: the availability middleware has checked that the salt is there. */
  const tokens = (): TransferTokenService => transferTokenService(app.db, transferTokenSalt(app)!);

  return {
    'runner-push': noTransferToken,
    'runner-pull': noTransferToken,

    async 'token-list'(ctx: Koa.Context) {
      ctx.body = { data: await tokens().list() };
    },

    async 'token-getById'(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      const token = id === null ? null : await tokens().getById(id);
      if (!token) return notFound(ctx);
      ctx.body = { data: token };
    },

    async 'token-create'(ctx: Koa.Context) {
      const attributes = checkBody<NewTransferToken>(transferCreationAttributes(requestBody(ctx)), CREATE_TRANSFER_TOKEN);
      withinBudgets(attributes);
      if (await tokens().getByName(attributes.name)) throw new ApplicationError('Name already taken');
      ctx.status = 201;
      ctx.body = { data: await tokens().create(attributes) };
    },

    async 'token-update'(ctx: Koa.Context) {
      const attributes = checkBody<TransferTokenAttributes>(transferUpdateAttributes(requestBody(ctx)), UPDATE_TRANSFER_TOKEN);
      withinBudgets(attributes);
      const id = rowId(ctx.params.id);
      if (id === null || !(await tokens().getById(id))) return notFound(ctx);
      if (attributes.name !== undefined) {
        const holder = await tokens().getByName(attributes.name);
        if (holder && holder.id !== id) throw new ApplicationError('Name already taken');
      }
      ctx.body = { data: await tokens().update(id, attributes) };
    },

    async 'token-regenerate'(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      if (id === null || !(await tokens().getById(id))) return notFound(ctx);
      ctx.status = 201;
      ctx.body = { data: await tokens().regenerate(id) };
    },

    /** Strapi answers a token that is not there with `{ data: null }`, a 200. */
    async 'token-revoke'(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      ctx.body = { data: id === null ? null : await tokens().revoke(id) };
    },
  };
}

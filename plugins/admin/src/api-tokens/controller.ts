/**
 * The panel's API-token pages (`api-token` controller of `@strapi/admin`
 * 4.26.2): list, create (the access key answered once), get, update,
 * regenerate, delete. Over `strapi.service('admin::api-token')` (core's
 * admin-api-token-service.ts), the service `tessera api-token` and the
 * content API's token strategy use: one set of rows, one hash, one lifespan
 * rule. And the custom-token editor's catalogue (`content-api` controller):
 * the content API's actions and routes.
 */
import type Koa from 'koa';
import { ApplicationError, ValidationError } from '@tessera/errors';
import { contentApiActionsMap, contentApiRoutesMap, requestBody, type AdminApiTokenService, type App } from '@tessera/core';
import { checkBody } from '../body-rules';
import { CREATE_TOKEN, creationAttributes, UPDATE_TOKEN, updateAttributes, type TokenAttributes } from './validation';

/** Budgets: a name or description longer than its column, or a permission list longer than any app's catalogue, is a 400. */
const MAX_TEXT = 255;
const MAX_PERMISSIONS = 1000;

function notFound(ctx: Koa.Context, message: string): void {
  ctx.status = 404;
  ctx.body = { data: null, error: { status: 404, name: 'NotFoundError', message, details: {} } };
}

/** A route's `:id` as a row id; anything else names no token (Strapi finds none either). */
export function rowId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

function withinBudgets(attributes: TokenAttributes): void {
  for (const field of ['name', 'description'] as const) {
    const value = attributes[field];
    if (typeof value === 'string' && value.length > MAX_TEXT) throw ValidationError.forField([field], `${field} must be at most ${MAX_TEXT} characters`);
  }
  if (Array.isArray(attributes.permissions) && attributes.permissions.length > MAX_PERMISSIONS) {
    throw ValidationError.forField(['permissions'], `permissions must have less than or equal to ${MAX_PERMISSIONS} items`);
  }
}

export function apiTokenController(app: App) {
  const tokens = (): AdminApiTokenService => {
    const service = app.service<AdminApiTokenService>('admin::api-token');
    if (!service) throw new Error('the admin::api-token service is registered by the kernel once the database is up');
    return service;
  };

  return {
    async create(ctx: Koa.Context) {
      const attributes = checkBody<TokenAttributes>(creationAttributes(requestBody(ctx)), CREATE_TOKEN);
      withinBudgets(attributes);
      if (await tokens().exists({ name: attributes.name })) throw new ApplicationError('Name already taken');
      ctx.status = 201;
      ctx.body = { data: await tokens().create({ ...attributes, permissions: attributes.permissions ?? undefined }) };
    },

    async regenerate(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      if (id === null || !(await tokens().getById(id))) return notFound(ctx, 'API Token not found');
      ctx.status = 201;
      ctx.body = { data: await tokens().regenerate(id) };
    },

    async list(ctx: Koa.Context) {
      ctx.body = { data: await tokens().list() };
    },

    /** Strapi answers a token that is not there with `{ data: null }`, a 200. */
    async revoke(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      ctx.body = { data: id === null ? null : await tokens().revoke(id) };
    },

    async get(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      const token = id === null ? null : await tokens().getById(id);
      if (!token) return notFound(ctx, 'API Token not found');
      ctx.body = { data: token };
    },

    async update(ctx: Koa.Context) {
      const attributes = checkBody<TokenAttributes>(updateAttributes(requestBody(ctx)), UPDATE_TOKEN);
      withinBudgets(attributes);
      const id = rowId(ctx.params.id);
      if (id === null || !(await tokens().getById(id))) return notFound(ctx, 'API Token not found');
      if (attributes.name !== undefined) {
        const holder = await tokens().getByName(attributes.name);
        if (holder && holder.id !== id) throw new ApplicationError('Name already taken');
      }
      ctx.body = { data: await tokens().update(id, { ...attributes, permissions: attributes.permissions ?? undefined }) };
    },
  };
}

/** `GET /admin/content-api/permissions` and `/routes`: what a custom token can be granted, and the routes each action opens. */
export function contentApiController(app: App) {
  return {
    getPermissions(ctx: Koa.Context) {
      ctx.body = { data: contentApiActionsMap(app) };
    },
    getRoutes(ctx: Koa.Context) {
      ctx.body = { data: contentApiRoutesMap(app) };
    },
  };
}

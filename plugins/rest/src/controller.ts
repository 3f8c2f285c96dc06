/**
 * The core controller: the thin REST adapter. It takes the parsed query
 * (`ctx.query`, parsed by the kernel's HTTP server) and the body, calls the
 * content type's service with the caller, and writes the
 * Strapi v4 envelope `{ data, meta }`. A request without a caller is refused.
 */
import type Koa from 'koa';
import { Caller, requestBody, type App, type AuthState, type Entity, type FindResult } from '@tessera/core';
import { ConfigurationError, NotFoundError, ValidationError } from '@tessera/errors';
import type { ResponseTransformer, RestEntry } from '@tessera/core';
import type { CoreService } from './service';

export interface CoreController {
  find(ctx: Koa.Context): Promise<unknown>;
  findOne(ctx: Koa.Context): Promise<unknown>;
  create(ctx: Koa.Context): Promise<unknown>;
  update(ctx: Koa.Context): Promise<unknown>;
  delete(ctx: Koa.Context): Promise<unknown>;
  /** The envelope for entities of this content type (for custom actions). */
  transformResponse(data: Entity | Entity[] | null, meta?: Record<string, unknown>): { data: RestEntry | RestEntry[] | null; meta: Record<string, unknown> };
  /** Strapi v4's helpers for custom actions, over `strapi.contentAPI` with this type and the request's caller. */
  sanitizeOutput(data: unknown, ctx: Koa.Context): Promise<unknown>;
  sanitizeInput(data: unknown, ctx: Koa.Context): Promise<unknown>;
  sanitizeQuery(ctx: Koa.Context): Promise<unknown>;
  validateQuery(ctx: Koa.Context): Promise<void>;
  validateInput(data: unknown, ctx: Koa.Context): Promise<void>;
}

export function defaultController(app: App, uid: string, transformer: () => ResponseTransformer): CoreController {
  const service = (): CoreService => {
    const found = app.service<CoreService>(uid);
    if (!found) throw new ConfigurationError(`no service "${uid}" for its core controller`);
    return found;
  };
  const meta = () => app.db.entity(uid);
  // Every mounted route sets the caller; without one, refused (never trusted, draft-reading server code).
  const auth = (ctx: Koa.Context): AuthState => Caller.ofRequest(ctx.state).state;
  // The parsed query as route middlewares left it (see installQueryParser in core).
  const query = (ctx: Koa.Context) => ctx.query as Record<string, unknown>;
  const body = (ctx: Koa.Context) => {
    const raw = requestBody(ctx);
    if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('data' in raw)) {
      throw new ValidationError('Missing "data" payload in the request body');
    }
    return (raw as { data: unknown }).data;
  };

  const controller: CoreController = {
    async find(ctx) {
      const result = await service().find(query(ctx), auth(ctx));
      if (isFindResult(result)) return controller.transformResponse(result.results, { pagination: result.pagination });
      return controller.transformResponse(found(result));
    },
    async findOne(ctx) {
      return controller.transformResponse(found(await service().findOne(ctx.params.id, query(ctx), auth(ctx))));
    },
    async create(ctx) {
      return controller.transformResponse(await service().create({ ...query(ctx), data: body(ctx) }, auth(ctx)));
    },
    async update(ctx) {
      return controller.transformResponse(found(await service().update(ctx.params.id, { ...query(ctx), data: body(ctx) }, auth(ctx))));
    },
    async delete(ctx) {
      return controller.transformResponse(found(await service().delete(ctx.params.id, query(ctx), auth(ctx))));
    },
    sanitizeOutput: (data, ctx) => app.contentAPI.sanitize.output(data, uid, { auth: auth(ctx) }),
    sanitizeInput: (data, ctx) => app.contentAPI.sanitize.input(data, uid, { auth: auth(ctx) }),
    sanitizeQuery: (ctx) => app.contentAPI.sanitize.query(query(ctx), uid, { auth: auth(ctx) }),
    validateQuery: (ctx) => app.contentAPI.validate.query(query(ctx), uid, { auth: auth(ctx) }),
    validateInput: (data, ctx) => app.contentAPI.validate.input(data, uid, { auth: auth(ctx) }),
    transformResponse(data, extraMeta = {}) {
      const entity = meta();
      if (data === null) return { data: null, meta: extraMeta };
      const transformed = Array.isArray(data) ? transformer().entries(data, entity) : transformer().entry(data, entity);
      return { data: transformed, meta: extraMeta };
    },
  };
  return controller;
}

/** The service's null (no such entry) is the controller's 404, as Strapi's core controller leaves it. */
function found<T>(entry: T | null | undefined): T {
  if (entry === null || entry === undefined) throw new NotFoundError();
  return entry;
}

function isFindResult(value: unknown): value is FindResult {
  return typeof value === 'object' && value !== null && 'results' in value && 'pagination' in value;
}

/**
 * The REST controllers: Strapi v4's users-permissions answers, which are
 * bare JSON (no `{ data, meta }` envelope) — `{ jwt, user }`, user objects,
 * user arrays, `{ roles }`, `{ ok: true }`. Each reads the request and calls
 * the transport-free services.
 */
import type Koa from 'koa';
import { Caller, requestBody, type App } from '@tessera/core';
import { ValidationError } from '@tessera/errors';
import { providerEnabled } from '../providers';
import type { connectActions } from './connect';
import type { AdvancedConfig } from '../config';
import type { AuthService } from '../services/auth';
import type { RoleService } from '../services/role';
import type { UserService } from '../services/user';

type Action = (ctx: Koa.Context) => Promise<unknown>;

const body = (ctx: Koa.Context): unknown => requestBody(ctx) ?? {};
const caller = (ctx: Koa.Context): Caller => Caller.ofRequest(ctx.state);
const query = (ctx: Koa.Context): Record<string, unknown> => ctx.query as Record<string, unknown>;

export function authController(service: () => AuthService, app: App, advanced: () => Promise<AdvancedConfig>, thirdParty: ReturnType<typeof connectActions>): Record<string, Action> {
  return {
    callback: async (ctx) => service().login(body(ctx)),
    // GET /auth/:provider/callback: `local` is the password login (while email sign-in is enabled), as on Strapi;
    // any other name is a third-party sign-in (controllers/connect.ts).
    async providerCallback(ctx) {
      if (String(ctx.params.provider) === 'local' && (await providerEnabled(app, 'email'))) return service().login(body(ctx));
      return thirdParty.providerCallback(ctx);
    },
    connect: thirdParty.connect,
    register: async (ctx) => service().register(body(ctx)),
    changePassword: async (ctx) => service().changePassword(caller(ctx), body(ctx)),
    forgotPassword: async (ctx) => service().forgotPassword(body(ctx)),
    resetPassword: async (ctx) => service().resetPassword(body(ctx)),
    sendEmailConfirmation: async (ctx) => service().sendEmailConfirmation(body(ctx)),
    async emailConfirmation(ctx) {
      await service().emailConfirmation(query(ctx).confirmation);
      // Strapi's `settings.email_confirmation_redirection || '/'`, from the stored advanced settings.
      ctx.redirect((await advanced()).emailConfirmationRedirection || '/');
      return undefined;
    },
  };
}

export function userController(service: () => UserService): Record<string, Action> {
  return {
    find: async (ctx) => service().find(caller(ctx), query(ctx)),
    count: async (ctx) => service().countVisible(caller(ctx), query(ctx)),
    findOne: async (ctx) => service().findOne(caller(ctx), ctx.params.id, query(ctx)),
    me: async (ctx) => service().me(caller(ctx), query(ctx)),
    async create(ctx) {
      const created = await service().create(caller(ctx), body(ctx));
      ctx.status = 201;
      ctx.body = created;
      return created;
    },
    update: async (ctx) => service().update(caller(ctx), ctx.params.id, body(ctx)),
    destroy: async (ctx) => service().delete(caller(ctx), ctx.params.id),
  };
}

/** Strapi's role controller refuses an empty body first (`_.isEmpty(ctx.request.body)`), on both APIs. */
function roleBody(ctx: Koa.Context): unknown {
  const given = requestBody(ctx);
  if (given === null || given === undefined || (typeof given === 'object' && Object.keys(given).length === 0)) throw new ValidationError('Request body cannot be empty');
  return given;
}

export function roleController(service: () => RoleService): Record<string, Action> {
  return {
    find: async () => ({ roles: await service().find() }),
    findOne: async (ctx) => ({ role: await service().findOne(ctx.params.id) }),
    async createRole(ctx) {
      await service().create(roleBody(ctx));
      return { ok: true };
    },
    async updateRole(ctx) {
      await service().update(ctx.params.role, roleBody(ctx));
      return { ok: true };
    },
    async deleteRole(ctx) {
      await service().delete(ctx.params.role);
      return { ok: true };
    },
  };
}

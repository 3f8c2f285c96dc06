/**
 * `admin::hasPermissions` until admin RBAC serves Strapi's abilities: the
 * signed-in admin (admin-auth.ts puts it on the request first) may run the
 * route when it holds every listed action — through a stored permission of
 * one of its roles, or as a Super Admin (Strapi gives that role every action
 * at boot; Tessera stores none for it yet). A refusal is Strapi's 403,
 * "Forbidden" (a policy refusal's wording).
 */
import type Koa from 'koa';
import { ForbiddenError, toErrorBody } from '@tessera/errors';
import type { App, RouteMiddleware } from '@tessera/core';
import { signedInAdmin } from './admin-auth';
import { SUPER_ADMIN_CODE } from './roles';
import { adminUsers } from './users';

export interface HasPermissionsConfig {
  actions?: Array<string | { action: string; subject?: string }>;
}

export function hasPermissions(app: App, config: unknown): RouteMiddleware {
  const actions = ((config as HasPermissionsConfig | undefined)?.actions ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.action));
  return async (ctx: Koa.Context, next: Koa.Next) => {
    const user = signedInAdmin(ctx);
    const superAdmin = (user.roles ?? []).some((role) => role.code === SUPER_ADMIN_CODE);
    const held = superAdmin ? null : new Set((await adminUsers(app).permissionsOf(user)).map((permission) => permission.action));
    if (held && !actions.every((action) => held.has(action))) {
      const error = new ForbiddenError('Forbidden');
      ctx.status = error.status;
      ctx.body = toErrorBody(error);
      return;
    }
    await next();
  };
}

/**
 * Who is calling an admin route: the one place that decides it, so it can
 * move into a shared access layer later. An admin is a bearer JWT signed with
 * `admin.auth.secret` (ADMIN_JWT_SECRET), as `@strapi/admin` 4.26.2 signs it —
 * payload `{ id }`, HS256, `expiresIn: '30d'` unless `admin.auth.options` says
 * otherwise — so the sessions of a Strapi app moved to Tessera stay valid. The
 * user must exist and be active.
 *
 * The two kinds of caller never cross: this strategy is not one of the content
 * API's (`app.authStrategies`), so an admin token is refused there, and only a
 * token this secret signed is accepted here, so API tokens and
 * users-permissions JWTs are refused on `/admin` (401, Strapi's answer). Keep
 * ADMIN_JWT_SECRET different from users-permissions' JWT secret: both sign
 * `{ id }`, as on Strapi.
 */
import type Koa from 'koa';
import jwt from 'jsonwebtoken';
import { ConfigurationError, toErrorBody, UnauthorizedError } from '@tessera/errors';
import type { App, RouteMiddleware } from '@tessera/core';
import { resolveAdminSecret } from './secret';
import { adminUsers, type AdminUser } from './users';

interface AdminAuthConfig {
  secret?: unknown;
  options?: jwt.SignOptions;
}

const DEFAULT_OPTIONS: jwt.SignOptions = { expiresIn: '30d' };

function authConfig(app: App): { secret: string; options: jwt.SignOptions } {
  const config = app.config.get<AdminAuthConfig>('admin.auth') ?? {};
  if (typeof config.secret !== 'string' || config.secret === '') throw new ConfigurationError('admin: no auth.secret (the admin plugin resolves it in register)', 'config/admin');
  return { secret: config.secret, options: { ...DEFAULT_OPTIONS, ...(config.options ?? {}) } };
}

/** Puts the resolved secret where Strapi code reads it (`admin.auth.secret`); stops the boot without one (secret.ts). */
export function settleSecret(app: App): void {
  const secret = resolveAdminSecret(app);
  // Both sign `{ id }`: with one secret, an admin's token would pass as users-permissions user number `id` on the
  // content API (Strapi has the same flaw). Tessera refuses the pair instead.
  if (secret === process.env.JWT_SECRET) throw new ConfigurationError('ADMIN_JWT_SECRET (admin.auth.secret) must differ from JWT_SECRET: both sign { id }, so an admin token would pass as a users-permissions user', 'config/admin');
  app.config.set('admin.auth.secret', secret);
}

export function issueAdminToken(app: App, userId: number): string {
  const { secret, options } = authConfig(app);
  return jwt.sign({ id: userId }, secret, options);
}

/** The user id of a valid token (signature and expiry), or null. */
export function decodeAdminToken(app: App, token: string): number | null {
  try {
    const payload = jwt.verify(token, authConfig(app).secret, { algorithms: ['HS256'] });
    const id = typeof payload === 'object' && payload !== null ? (payload as { id?: unknown }).id : undefined;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** Strapi's header rule: `Bearer <token>`, two parts exactly. */
function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0].toLowerCase() !== 'bearer') return null;
  return parts[1];
}

/** The signed-in admin (with roles), or null. */
export async function authenticateAdmin(app: App, header: string | undefined): Promise<AdminUser | null> {
  const token = bearerToken(header);
  if (token === null) return null;
  const id = decodeAdminToken(app, token);
  if (id === null) return null;
  const user = await adminUsers(app).findWithRoles(id);
  return user && user.isActive === true ? user : null;
}

export interface AdminState {
  user: AdminUser;
  isAuthenticated: true;
}

/** The admin a route middleware put on the request (`ctx.state.user`, as Strapi's admin controllers read it). */
export function signedInAdmin(ctx: Koa.Context): AdminUser {
  const state = ctx.state as Partial<AdminState>;
  if (!state.isAuthenticated || !state.user) throw new Error('an admin route ran without admin::isAuthenticatedAdmin');
  return state.user;
}

/**
 * The route middleware of every admin route that needs a signed-in admin
 * (Strapi's admin auth strategy + `admin::isAuthenticatedAdmin`). Refusals are
 * written here, in Strapi's words: a refusal thrown past the route's guard is
 * reworded to a bare "Unauthorized".
 */
export function requireAdmin(app: App): RouteMiddleware {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    const user = await authenticateAdmin(app, ctx.req.headers.authorization);
    if (!user) {
      const error = new UnauthorizedError();
      ctx.status = error.status;
      ctx.body = toErrorBody(error);
      return;
    }
    ctx.state.user = user;
    ctx.state.isAuthenticated = true;
    // Strapi's `ctx.state.auth` for an admin; the ability stays the public caller's until admin RBAC is served.
    ctx.state.auth = { ...ctx.state.auth, strategy: { name: 'admin' }, credentials: user };
    await next();
  };
}

/**
 * Who is calling an admin route. An admin is a bearer JWT signed with
 * `admin.auth.secret` (ADMIN_JWT_SECRET), as `@strapi/admin` 4.26.2 signs it —
 * payload `{ id }`, HS256, `expiresIn: '30d'` unless `admin.auth.options` says
 * otherwise — so the sessions of a Strapi app moved to Tessera stay valid. The
 * user must exist and be active.
 *
 * The two kinds of caller never cross: this strategy is registered for admin
 * routes only (`app.adminAuthStrategies`), so an admin token is refused on the
 * content API, and the content API's strategies never run on admin routes, so
 * API tokens and users-permissions JWTs are refused there (401, Strapi's answer). Keep
 * ADMIN_JWT_SECRET different from users-permissions' JWT secret: both sign
 * `{ id }`, as on Strapi.
 */
import type Koa from 'koa';
import jwt from 'jsonwebtoken';
import { ConfigurationError, UnauthorizedError } from '@tessera/errors';
import type { App, AuthState, AuthStrategy, ContentType } from '@tessera/core';
import { buildAbility } from './ability';
import { USER_UID } from './content-types';
import { USER_ABILITY, type AdminAbility } from './contract';
import { SUPER_ADMIN_CODE } from './roles';
import { resolveAdminSecret } from './secret';
import { adminUsers, type AdminUser } from './users';

/** The state's strategy: Strapi's name (plugins read `ctx.state.auth.strategy.name`), and the admin kind of caller (auth/caller.ts). */
const ADMIN_STRATEGY = { name: 'admin', callerKind: 'admin' } as const;

interface AdminAuthConfig {
  secret?: unknown;
  options?: jwt.SignOptions;
}

const DEFAULT_OPTIONS: jwt.SignOptions = { expiresIn: '30d' };

export function authConfig(app: App): { secret: string; options: jwt.SignOptions } {
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

/**
 * The admin auth strategy, registered for admin routes only (`app.adminAuthStrategies`, Strapi's
 * `auth.register('admin', …)`): a token this secret signed, of an active user, is that admin, with the ability of
 * its roles' permissions built once for the request (contract.ts). Anything else is no admin (the kernel answers
 * Strapi's 401 "Missing or invalid credentials").
 */
export function adminAuthStrategy(app: App): AuthStrategy {
  const users = adminUsers(app);
  return {
    name: 'admin',
    async authenticate(token: string): Promise<AuthState | null> {
      const id = decodeAdminToken(app, token);
      if (id === null) return null;
      const user = await users.findWithRoles(id);
      if (!user || user.isActive !== true) return null;
      const ability = await abilityOf(app, user);
      return { strategy: ADMIN_STRATEGY, credentials: user, ability, user, requestState: { [USER_ABILITY]: ability } };
    },
  };
}

/** The ability of an admin user (with its roles): Super Admin holds every registered action, others their roles' permissions (one query). */
export async function abilityOf(app: App, user: AdminUser): Promise<AdminAbility> {
  const roles = (user.roles ?? []).map((role) => ({ ...role, id: role.id, code: (role as Record<string, unknown>).code }));
  const isSuperAdmin = roles.some((role) => role.code === SUPER_ADMIN_CODE);
  return buildAbility({
    user: { ...user, id: user.id, roles },
    isSuperAdmin,
    permissions: isSuperAdmin ? [] : await adminUsers(app).permissionsOf(user),
    conditions: app.admin.services.permission.conditionProvider,
    isLocalized: (subject) => isLocalized(app.contentTypes.find(subject)),
    adminUserIds: async (where) => (await app.db.query(USER_UID).findMany({ where, select: ['id'] })).map((row) => row.id),
    isRegistered: (action, subject) => {
      const registered = app.admin.services.permission.actionProvider.get(action);
      return registered !== undefined && (subject === undefined || registered.subjects === undefined || registered.subjects.includes(subject));
    },
  });
}

function isLocalized(type: ContentType | undefined): boolean {
  const i18n = (type?.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  return i18n?.localized === true;
}

export interface AdminState {
  user: AdminUser;
  isAuthenticated: true;
}

/** The admin the strategy put on the request (`ctx.state.user`, as Strapi's admin controllers read it). */
export function signedInAdmin(ctx: Koa.Context): AdminUser {
  const state = ctx.state as Partial<AdminState>;
  if (!state.isAuthenticated || !state.user) throw new UnauthorizedError();
  return state.user;
}

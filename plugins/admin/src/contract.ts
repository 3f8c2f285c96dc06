/**
 * What other plugins get from the admin plugin to decide what a signed-in
 * admin may do (the content manager, the media library, settings pages): the
 * admin caller's ability, built once per request by the admin auth strategy
 * from the permissions of the user's roles (one query), as Strapi's
 * `ctx.state.userAbility`.
 *
 *   const ability = adminAbility(ctx);
 *   const access = ability.access('plugin::content-manager.explorer.read', 'api::article.article');
 *   if (!access) → 403;
 *   db.query(uid).findMany({ where: access.filters ? { $and: [where, access.filters] } : where });
 *   output only `access.fields` ('all', or the listed paths), locales only `access.locales`.
 *
 * A Super Admin may do every registered action (on the action's subjects).
 */
import type Koa from 'koa';
import { UnauthorizedError } from '@tessera/errors';
import type { Filters } from './conditions';

export type { Filters } from './conditions';

/** `'all'`, or the permitted ones (Strapi's field paths: `title`, `seo.metaTitle`). */
export type Permitted = 'all' | readonly string[];

/** What a caller may do with the entries of one subject under one action. */
export interface SubjectAccess {
  /**
   * The entries it may touch, as Strapi filters (its permissions' conditions and locales, OR-ed across
   * permissions); undefined when every entry.
   */
  filters: Filters | undefined;
  /** The fields it may read or write: all when a permission lists none, as Strapi. */
  fields: Permitted;
  /** The locales it may touch (`properties.locales`): all when a permission does not restrict them. */
  locales: Permitted;
}

/** A stored permission of one of the admin's roles, as `GET /admin/users/me/permissions` answers it. */
export interface AdminPermission {
  id: number;
  action: string;
  actionParameters: unknown;
  subject: string | null;
  properties: unknown;
  conditions: unknown;
}

export interface AdminAbility {
  readonly userId: number;
  readonly roleIds: readonly number[];
  readonly isSuperAdmin: boolean;
  /** The stored permissions it was built from (none for a Super Admin, who holds every registered action). */
  readonly permissions: readonly AdminPermission[];
  /**
   * Strapi's `userAbility.can`: without a subject, the action's subjectless permission; with one, a permission on
   * that subject (conditions are about entries, not asked here); with a field, a permission listing it (or none).
   */
  can(action: string, subject?: string, field?: string): boolean;
  /** What it may do with `subject` under `action`; null when no permission grants it. */
  access(action: string, subject: string): SubjectAccess | null;
  /** `access(...).fields`, none when refused. */
  fieldsFor(action: string, subject: string): Permitted;
  /** `access(...).locales`, none when refused. */
  localesFor(action: string, subject: string): Permitted;
}

/** The key under which the strategy leaves the ability on `ctx.state` (Strapi's name). */
export const USER_ABILITY = 'userAbility';

const ABILITY_MARK: unique symbol = Symbol.for('tessera.admin.ability');

/** Marks an ability as the admin plugin's, so `adminAbility` never trusts another object found on `ctx.state`. */
export function markAbility<T extends AdminAbility>(ability: T): T {
  Object.defineProperty(ability, ABILITY_MARK, { value: true });
  return ability;
}

function isAdminAbility(value: unknown): value is AdminAbility {
  return typeof value === 'object' && value !== null && (value as { [ABILITY_MARK]?: unknown })[ABILITY_MARK] === true;
}

/**
 * The signed-in admin's ability on an admin route. Throws UnauthorizedError outside an authenticated admin
 * route (a content-API route, or an admin route under `auth: false`): content-API callers have none.
 */
export function adminAbility(ctx: Koa.Context): AdminAbility {
  const ability: unknown = ctx.state[USER_ABILITY];
  if (!isAdminAbility(ability)) throw new UnauthorizedError();
  return ability;
}

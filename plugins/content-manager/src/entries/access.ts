/**
 * What the signed-in admin may do with one content type through the content manager: the one place the entry
 * routes ask. Strapi's `permission-checker` answers the same questions from the admin's ability: may the action
 * be done at all, which entries (the permission's conditions, as filters), which fields.
 *
 * The ability comes from the admin's roles. Until the admin plugin serves its role permissions (issue 39, part 1),
 * only a Super Admin has an ability here, and it holds everything; any other admin may do nothing (closed by default).
 */
import type Koa from 'koa';

export const CM_ACTIONS = {
  read: 'plugin::content-manager.explorer.read',
  create: 'plugin::content-manager.explorer.create',
  update: 'plugin::content-manager.explorer.update',
  delete: 'plugin::content-manager.explorer.delete',
  publish: 'plugin::content-manager.explorer.publish',
} as const;

export type CmAction = keyof typeof CM_ACTIONS;

export interface ModelAccess {
  /** May the admin do `action` on some entries (and, with `field`, on that field)? */
  can(action: CmAction, field?: string): boolean;
  /** The filters the action's conditions put on entries (`undefined`: every entry). */
  where(action: CmAction): Record<string, unknown> | undefined;
  /** The fields (dotted paths into components) the action allows, or null for every field. */
  fields(action: CmAction): string[] | null;
}

const EVERYTHING: ModelAccess = { can: () => true, where: () => undefined, fields: () => null };
const NOTHING: ModelAccess = { can: () => false, where: () => undefined, fields: () => [] };

const SUPER_ADMIN = 'strapi-super-admin';

interface SignedIn {
  id: number;
  roles?: Array<{ code?: unknown }>;
}

/** The admin an entry route runs for (`admin::isAuthenticatedAdmin` put it on the state). */
export function signedInAdmin(ctx: Koa.Context): SignedIn {
  const user = (ctx.state as { user?: SignedIn }).user;
  if (!user || typeof user.id !== 'number') throw new Error('a content-manager entry route ran without admin::isAuthenticatedAdmin');
  return user;
}

export function modelAccess(ctx: Koa.Context, _uid: string): ModelAccess {
  const user = signedInAdmin(ctx);
  return (user.roles ?? []).some((role) => role.code === SUPER_ADMIN) ? EVERYTHING : NOTHING;
}

/** ANDs the action's condition filters onto `filters`. */
export function withConditions(access: ModelAccess, action: CmAction, filters: unknown): unknown {
  const conditions = access.where(action);
  if (conditions === undefined) return filters;
  return filters === undefined ? conditions : { $and: [filters, conditions] };
}

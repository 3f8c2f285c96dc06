/**
 * What the signed-in admin may do with one content type through the content manager: the one place the entry
 * routes ask, over the admin plugin's ability contract (`adminAbility(ctx)`: the admin's role permissions, their
 * conditions compiled to filters). Strapi's `permission-checker` answers the same questions: may the action be
 * done at all (and on a field), which entries (the conditions, as filters), which fields.
 */
import type Koa from 'koa';
import { adminAbility } from '@tessera/plugin-admin';

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
  /** The filters the action's conditions put on entries (`undefined`: every entry; nothing when not permitted). */
  where(action: CmAction): Record<string, unknown> | undefined;
  /** The fields (dotted paths into components) the action allows, or null for every field. */
  fields(action: CmAction): string[] | null;
  /** The locales the action allows, or null for every locale. */
  locales(action: CmAction): string[] | null;
}

/** Matches no entry: what an action the admin does not hold may touch. */
const NO_ENTRY = { id: { $in: [] } };

/** The signed-in admin's id (the ability is the admin strategy's, on every signed-in admin route). */
export function signedInAdmin(ctx: Koa.Context): { id: number } {
  return { id: adminAbility(ctx).userId };
}

export function modelAccess(ctx: Koa.Context, uid: string): ModelAccess {
  const ability = adminAbility(ctx);
  return {
    can: (action, field) => ability.can(CM_ACTIONS[action], uid, field),
    where: (action) => {
      const access = ability.access(CM_ACTIONS[action], uid);
      return access === null ? NO_ENTRY : access.filters;
    },
    fields: (action) => {
      const fields = ability.fieldsFor(CM_ACTIONS[action], uid);
      return fields === 'all' ? null : [...fields];
    },
    locales: (action) => {
      const locales = ability.localesFor(CM_ACTIONS[action], uid);
      return locales === 'all' ? null : [...locales];
    },
  };
}

/**
 * Every action, entry and field: how Strapi's permission checker treats a type no permission can name (one the
 * content manager does not display, as users-permissions' role), since an action without rules adds no filters.
 */
export const UNRESTRICTED: ModelAccess = { can: () => true, where: () => undefined, fields: () => null, locales: () => null };

/** ANDs the action's condition filters onto `filters`. */
export function withConditions(access: ModelAccess, action: CmAction, filters: unknown): unknown {
  const conditions = access.where(action);
  if (conditions === undefined) return filters;
  return filters === undefined ? conditions : { $and: [filters, conditions] };
}

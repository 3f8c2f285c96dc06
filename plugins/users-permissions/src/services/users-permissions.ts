/**
 * `service('users-permissions')`: the roles' abilities the kernel asks (cached, and the cache's reset), with Strapi
 * 4.26.2's helpers app code calls: `updateUserRole(user, roleId)` and `template(layout, data)`, which fills
 * `<%= USER.username %>`-style placeholders as Strapi's email templates do (interpolation only: no code runs).
 */
import type { ActionSet, App, Entity } from '@tessera/core';
import type { PermissionsService } from '../contract';
import type { RoleAbilities } from './abilities';

const USER_UID = 'plugin::users-permissions.user';
const PLACEHOLDER = /<%=\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*%>/g;

export function createPermissionsService(app: App, abilities: () => RoleAbilities | undefined): PermissionsService {
  const ready = (): RoleAbilities => {
    const current = abilities();
    if (!current) throw new Error('users-permissions is used before it registered');
    return current;
  };
  return {
    invalidate: () => abilities()?.invalidate(),
    roleAbility: (id: number): Promise<ActionSet> => ready().roleAbility(id),
    publicAbility: (): Promise<ActionSet> => ready().publicAbility(),
    async updateUserRole(user: Entity, role: number | string) {
      await app.db.query(USER_UID).update({ where: { id: user.id }, data: { role } });
    },
    template: (layout: string, data: Record<string, unknown>) => fillTemplate(layout, data),
  };
}

/** `<%= A.b %>` → the value at that path of `data` ('' when absent). */
export function fillTemplate(layout: string, data: Record<string, unknown>): string {
  return layout.replace(PLACEHOLDER, (_match, path: string) => {
    let value: unknown = data;
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    return value === undefined || value === null ? '' : String(value);
  });
}

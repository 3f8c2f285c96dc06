/**
 * `service('users-permissions')`: the roles' abilities the kernel asks (cached, and the cache's reset), with Strapi
 * 4.26.2's helpers app code calls: `updateUserRole(user, roleId)` and `template(layout, data)`, which fills
 * `<%= USER.username %>`-style placeholders as Strapi's email templates do (interpolation only: no code runs).
 */
import type { ActionSet, App, Entity } from '@tessera/core';
import type { PermissionsService } from '../contract';
import type { RoleAbilities } from './abilities';
import { fillTemplate } from '../settings/fill-template';

export { fillTemplate } from '../settings/fill-template';

const USER_UID = 'plugin::users-permissions.user';

export function createPermissionsService(app: App, abilities: RoleAbilities): PermissionsService {
  return {
    invalidate: () => abilities.invalidate(),
    roleAbility: (id: number): Promise<ActionSet> => abilities.roleAbility(id),
    publicAbility: (): Promise<ActionSet> => abilities.publicAbility(),
    async updateUserRole(user: Entity, role: number | string) {
      await app.db.query(USER_UID).update({ where: { id: user.id }, data: { role } });
    },
    template: (layout: string, data: Record<string, unknown>) => fillTemplate(layout, data),
  };
}

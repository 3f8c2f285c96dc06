/**
 * `service('permission')`: Strapi 4.26.2's reads of the permission rows (`up_permissions`), for app and plugin code:
 * a role's rows, the public role's rows, and a row as the content API's permission (`{ action }`).
 */
import type { App, Entity } from '@tessera/core';

const PERMISSION_UID = 'plugin::users-permissions.permission';

export interface PermissionService {
  findRolePermissions(roleId: number | string): Promise<Entity[]>;
  findPublicPermissions(): Promise<Entity[]>;
  toContentAPIPermission(permission: { action: string }): { action: string };
}

export function createPermissionService(app: App): PermissionService {
  return {
    findRolePermissions: (roleId) => app.db.query(PERMISSION_UID).findMany({ where: { role: { id: Number(roleId) } } }),
    findPublicPermissions: () => app.db.query(PERMISSION_UID).findMany({ where: { role: { type: 'public' } } }),
    toContentAPIPermission: ({ action }) => ({ action }),
  };
}

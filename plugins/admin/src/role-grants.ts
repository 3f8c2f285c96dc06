/**
 * No route lets an admin give more than it holds (issue 38; Strapi 4.26.2 has
 * no such rule): an admin who may invite or edit users but is no Super Admin
 * can give only roles whose every permission it holds itself, and never the
 * Super Admin role (which holds every action without storing any); and it
 * edits or deletes only users whose roles it could give (a new password for a
 * Super Admin is that Super Admin's power). So such an admin can neither raise
 * its own roles, nor invite an account it controls with more than it has, nor
 * take over a stronger account. A refusal is the route chain's 403.
 */
import { ForbiddenError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { PERMISSION_UID, ROLE_UID } from './content-types';
import type { AdminAbility } from './contract';
import { SUPER_ADMIN_CODE } from './roles';

export async function assertMayGrant(app: App, ability: AdminAbility, roleIds: readonly number[]): Promise<void> {
  if (ability.isSuperAdmin || roleIds.length === 0) return;
  const roles = await app.db.query(ROLE_UID).findMany({ where: { id: { $in: [...roleIds] } }, select: ['id', 'code'] });
  if (roles.some((role) => role.code === SUPER_ADMIN_CODE)) throw new ForbiddenError('Only a Super Admin can give the Super Admin role');
  const permissions = await app.db.query(PERMISSION_UID).findMany({ where: { role: { id: { $in: [...roleIds] } } }, select: ['action', 'subject'] });
  const beyond = permissions.find((permission) => !ability.can(String(permission.action), typeof permission.subject === 'string' ? permission.subject : undefined));
  if (beyond) throw new ForbiddenError(`A role given holds ${String(beyond.action)}, which the admin giving it does not`);
}

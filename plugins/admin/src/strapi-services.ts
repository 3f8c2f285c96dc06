/**
 * `strapi.admin.services.user`, `.role` and `.token` (and `strapi.service('admin::user' | 'admin::role' |
 * 'admin::token')`) for plugin code, over the admin plugin's own services and Strapi's admin tables: what
 * `@strapi/admin` 4.26.2 answers for the methods published plugins call. The kernel holds the slot and names the
 * methods Tessera does not serve (core's admin-services.ts); writes that have rules here (inviting, editing or
 * deleting admins and roles) stay with the admin routes, which check them.
 */
import { ApplicationError } from '@tessera/errors';
import type { AdminPluginServices, AdminRoleEntity, AdminUserEntity, App, Entity } from '@tessera/core';
import { authConfig, decodeAdminToken, issueAdminToken } from './admin-auth';
import { ROLE_UID, USER_UID } from './content-types';
import { SUPER_ADMIN_CODE } from './roles';
import { roleService } from './roles/service';
import { createToken } from './user-management';
import { adminUsers, sanitizeUser } from './users';

/** A positive integer id (a string from a route is accepted, as Strapi's query engine accepts it), else none. */
function idOf(raw: number | string): number | null {
  const id = typeof raw === 'number' ? raw : /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function usersCountOf(row: Entity): number {
  return Number((row.users as { count?: unknown } | undefined)?.count ?? 0);
}

function withoutUsers(row: Entity): AdminRoleEntity {
  const { users: _users, ...role } = row;
  return role as AdminRoleEntity;
}

export function strapiAdminServices(app: App): AdminPluginServices {
  const users = adminUsers(app);
  const roles = roleService(app);
  const userQuery = () => app.db.query(USER_UID);
  const roleQuery = () => app.db.query(ROLE_UID);

  return {
    user: {
      async exists(attributes = {}) {
        return (await userQuery().count({ where: attributes })) > 0;
      },
      async findOne(raw) {
        const id = idOf(raw);
        return id === null ? null : ((await users.findWithRoles(id)) as AdminUserEntity | null);
      },
      async findOneByEmail(email) {
        const found = await users.findByEmail(email);
        return found ? ((await users.findWithRoles(found.id)) as AdminUserEntity | null) : null;
      },
      count: (where = {}) => userQuery().count({ where }),
      getCurrentActiveUserCount: () => userQuery().count({ where: { isActive: true } }),
      sanitizeUser: (user) => sanitizeUser(user),
      async isLastSuperAdminUser(raw) {
        const id = idOf(raw);
        if (id === null) return false;
        const holds = (await users.superAdminCount([id])) > 0;
        return holds && (await users.superAdminCount()) === 1;
      },
      async resetPasswordByEmail(email, password) {
        const user = await users.findByEmail(email);
        if (!user) throw new ApplicationError(`User not found for email: ${email}`);
        if (typeof password !== 'string' || password.length < 8) throw new ApplicationError('Invalid password. Expected a minimum of 8 characters with at least one number and one uppercase letter');
        await users.update(user.id, { password });
      },
    },
    role: {
      async find(params = {}) {
        const where = (params.where as Record<string, unknown> | undefined) ?? {};
        return (await roleQuery().findMany({ where, orderBy: [{ id: 'asc' }] })) as AdminRoleEntity[];
      },
      async findOne(where = {}) {
        return (await roleQuery().findOne({ where })) as AdminRoleEntity | null;
      },
      async findAllWithUsersCount() {
        const rows = await roleQuery().findMany({ populate: { users: { count: true } }, orderBy: [{ id: 'asc' }] });
        return rows.map((row) => ({ ...withoutUsers(row), usersCount: usersCountOf(row) }));
      },
      async exists(where = {}) {
        return (await roleQuery().count({ where })) > 0;
      },
      count: (where = {}) => roleQuery().count({ where }),
      async getUsersCount(raw) {
        const id = idOf(raw);
        return id === null ? 0 : userQuery().count({ where: { roles: { id } } });
      },
      async getSuperAdmin() {
        return (await roleQuery().findOne({ where: { code: SUPER_ADMIN_CODE } })) as AdminRoleEntity | null;
      },
      async getSuperAdminWithUsersCount() {
        const row = await roleQuery().findOne({ where: { code: SUPER_ADMIN_CODE }, populate: { users: { count: true } } });
        return row ? { ...withoutUsers(row), usersCount: usersCountOf(row) } : null;
      },
      async checkRolesIdForDeletion(ids) {
        await roles.checkDeletable(ids.map((raw) => idOf(raw)).filter((id): id is number => id !== null), 'ids');
      },
    },
    token: {
      createToken,
      createJwtToken: (user) => issueAdminToken(app, user.id),
      decodeJwtToken(token) {
        const id = typeof token === 'string' ? decodeAdminToken(app, token) : null;
        return id === null ? { payload: null, isValid: false } : { payload: { id }, isValid: true };
      },
      getTokenOptions() {
        const { secret, options } = authConfig(app);
        return { secret, options: { ...options } };
      },
      checkSecretIsDefined() {
        authConfig(app);
      },
    },
  };
}

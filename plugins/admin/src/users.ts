/**
 * Admin users in `admin_users`, as `@strapi/admin` 4.26.2's user service keeps
 * them: bcrypt hashes (`$2a$10$…`, so a Strapi-made database's passwords verify
 * unchanged), roles through `admin_users_roles_links`, and Strapi's sanitized
 * form in answers (no password, tokens or private role fields).
 */
import bcrypt from 'bcryptjs';
import { ApplicationError } from '@tessera/errors';
import type { App, Entity } from '@tessera/core';
import { PERMISSION_UID, ROLE_UID, USER_UID } from './content-types';
import type { AdminPermission } from './contract';
import { SUPER_ADMIN_CODE } from './roles';

const ROUNDS = 10;
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const ROLE_FIELDS = ['id', 'name', 'description', 'code'];
/** Never leave the server (Strapi's `sanitizeUser`). */
const SECRET_FIELDS = new Set(['password', 'resetPasswordToken', 'registrationToken', 'roles']);

export interface AdminUser extends Entity {
  email: string;
  password: string | null;
  isActive: boolean | null;
  blocked: boolean | null;
  roles?: Entity[];
}

export interface SanitizedAdminUser {
  [key: string]: unknown;
  roles?: Array<Record<string, unknown>>;
}

export type { AdminPermission } from './contract';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

/** False for a missing or malformed hash (an invited user who never registered has none). */
export async function verifyPassword(password: string, hash: unknown): Promise<boolean> {
  if (typeof hash !== 'string' || !BCRYPT_HASH.test(hash)) return false;
  return bcrypt.compare(password, hash);
}

/** A hash nobody knows the password of: compared against when the email names no admin, so both cases cost one bcrypt. */
let decoy: Promise<string> | undefined;
export async function spendVerification(password: string): Promise<void> {
  decoy ??= bcrypt.hash(`decoy-${Math.random()}`, ROUNDS);
  await bcrypt.compare(password, await decoy);
}

export function sanitizeUser(user: Entity): SanitizedAdminUser {
  const out: SanitizedAdminUser = {};
  for (const [key, value] of Object.entries(user)) if (!SECRET_FIELDS.has(key)) out[key] = value;
  const roles = (user as AdminUser).roles;
  if (Array.isArray(roles)) out.roles = roles.map((role) => Object.fromEntries(ROLE_FIELDS.filter((key) => key in role).map((key) => [key, role[key]])));
  return out;
}

export function adminUsers(app: App) {
  const users = () => app.db.query(USER_UID);

  return {
    async exists(): Promise<boolean> {
      return (await users().count({})) > 0;
    },

    async findByEmail(email: string): Promise<AdminUser | null> {
      return (await users().findOne({ where: { email } })) as AdminUser | null;
    },

    /** `roles` is a private relation, which the query engine never populates: the roles are read from their side. */
    async findWithRoles(id: number): Promise<AdminUser | null> {
      const user = (await users().findOne({ where: { id } })) as AdminUser | null;
      if (!user) return null;
      user.roles = await app.db.query(ROLE_UID).findMany({ where: { users: { id } }, select: ROLE_FIELDS, orderBy: [{ id: 'asc' }] });
      return user;
    },

    /**
     * The first admin, as Super Admin. Two registrations racing must not both
     * pass the "no admin yet" check: the check and the insert run in one
     * transaction holding a lock every registration takes first, so the second
     * one waits, then sees the first admin and is refused as Strapi refuses it.
     */
    async registerFirstAdmin(input: { email: string; firstname: string; lastname?: string | null; password: string }): Promise<AdminUser> {
      const password = await hashPassword(input.password);
      const id = await app.db.transaction(async () => {
        await app.db.lock(['admin:first-registration']);
        if ((await users().count({})) > 0) throw new ApplicationError('You cannot register a new super admin');
        const superAdmin = await app.db.query(ROLE_UID).findOne({ where: { code: SUPER_ADMIN_CODE }, select: ['id'] });
        if (!superAdmin) throw new ApplicationError("Cannot register the first admin because the super admin role doesn't exist.");
        const data: Record<string, unknown> = {
          email: input.email,
          firstname: input.firstname,
          password,
          registrationToken: null,
          isActive: true,
          blocked: false,
          roles: [superAdmin.id],
        };
        if (input.lastname !== undefined) data.lastname = input.lastname;
        return (await users().create({ data })).id;
      });
      return (await this.findWithRoles(id))!;
    },

    async emailTaken(email: string, exceptId: number): Promise<boolean> {
      return (await users().count({ where: { email, id: { $ne: exceptId } } })) > 0;
    },

    async update(id: number, data: Record<string, unknown>): Promise<AdminUser> {
      const values = { ...data };
      if (typeof values.password === 'string') values.password = await hashPassword(values.password);
      if (Object.keys(values).length > 0) await users().update({ where: { id }, data: values });
      return (await this.findWithRoles(id))!;
    },

    /** The stored permissions of the user's roles (Strapi's `findUserPermissions`), in Strapi's sanitized form. */
    async permissionsOf(user: AdminUser): Promise<AdminPermission[]> {
      const roleIds = (user.roles ?? []).map((role) => role.id);
      if (roleIds.length === 0) return [];
      const rows = await app.db.query(PERMISSION_UID).findMany({ where: { role: { id: { $in: roleIds } } }, orderBy: [{ id: 'asc' }] });
      return rows.map((row) => ({
        id: row.id,
        action: String(row.action),
        actionParameters: row.actionParameters ?? {},
        subject: (row.subject as string | null) ?? null,
        properties: row.properties ?? {},
        conditions: row.conditions ?? [],
      }));
    },
  };
}

export type AdminUsers = ReturnType<typeof adminUsers>;

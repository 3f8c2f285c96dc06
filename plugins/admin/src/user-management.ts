/**
 * The Users settings page's writes, with `@strapi/admin` 4.26.2's rules
 * (its `user` service): an invitation creates an inactive user holding a
 * registration token; emails are unique; and the last Super Admin can be
 * neither deleted, deactivated nor stripped of the Super Admin role
 * ("You must have at least one user with super admin role.").
 *
 * Strapi checks that rule and then writes, so two requests removing the
 * last two Super Admins at once could both pass. Here each write runs in one
 * transaction holding the `admin:super-admins` lock: the second waits, then
 * counts again; two writes giving one email are serialised the same way. A
 * failed write changes nothing.
 */
import crypto from 'node:crypto';
import { ApplicationError, NotFoundError, ValidationError } from '@tessera/errors';
import type { App, Entity } from '@tessera/core';
import { ROLE_UID, USER_UID } from './content-types';
import { SUPER_ADMIN_CODE } from './roles';
import { adminUsers, hashPassword, type AdminUser } from './users';
import type { UserCreation, UserUpdate } from './validation';

const LAST_SUPER_ADMIN = 'You must have at least one user with super admin role.';
const SUPER_ADMINS_LOCK = 'admin:super-admins';
/** Two writes giving one email (in any case) wait for each other, so the second sees the first's. */
const emailLock = (email: string) => `admin:user-email:${email.toLowerCase()}`;

/** Strapi's registration and reset tokens: 20 random bytes, in hex. */
export function createToken(): string {
  return crypto.randomBytes(20).toString('hex');
}

/** A path or body id as the users' ids are: a positive integer (a number or its digits), else null (no such user). */
export function userId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What the Users page may change (the update schema), and what registration and resets set. */
export interface UserChanges extends UserUpdate {
  registrationToken?: null;
  resetPasswordToken?: string | null;
}

/** Refuses (throws) when the caller may not give these roles. */
export type GrantCheck = (roleIds: number[]) => Promise<void>;

export function userManagement(app: App) {
  const users = adminUsers(app);
  const query = () => app.db.query(USER_UID);

  /**
   * The role ids as stored, each naming a role. Strapi links whatever it is
   * given and answers 500 for a role that does not exist; a clear 400 here.
   */
  async function roleIds(roles: Array<string | number>): Promise<number[]> {
    const ids = [...new Set(roles.map((role) => userId(role)))];
    const known = ids.includes(null) ? [] : await app.db.query(ROLE_UID).findMany({ where: { id: { $in: ids as number[] } }, select: ['id'] });
    if (known.length !== ids.length) throw ValidationError.forField(['roles'], 'roles must name existing roles');
    return ids as number[];
  }

  async function superAdminRoleId(): Promise<number | null> {
    return (await app.db.query(ROLE_UID).findOne({ where: { code: SUPER_ADMIN_CODE }, select: ['id'] }))?.id ?? null;
  }

  /** Strapi's `isLastSuperAdminUser`: the user holds the role and is its only holder (inactive holders count). */
  async function isLastSuperAdmin(user: AdminUser): Promise<boolean> {
    return (user.roles ?? []).some((role) => role.code === SUPER_ADMIN_CODE) && (await users.superAdminCount()) === 1;
  }

  return {
    /**
     * An invitation: an inactive user with a registration token (answered once, to the inviting admin).
     * `mayGrant` sees the role ids before anything is written (role-grants.ts).
     */
    async invite(input: UserCreation, mayGrant?: GrantCheck): Promise<AdminUser & { registrationToken: string }> {
      const registrationToken = createToken();
      const id = await app.db.transaction(async () => {
        await app.db.lock([emailLock(input.email)]);
        if (await users.emailTaken(input.email)) throw new ApplicationError('Email already taken');
        const data: Record<string, unknown> = { email: input.email, firstname: input.firstname, registrationToken, isActive: false, blocked: false, username: null };
        if (input.lastname !== undefined) data.lastname = input.lastname;
        if (input.preferedLanguage !== undefined) data.preferedLanguage = input.preferedLanguage;
        data.roles = input.roles ? await roleIds(input.roles) : [];
        await mayGrant?.(data.roles as number[]);
        return (await query().create({ data })).id;
      });
      return { ...(await users.findWithRoles(id))!, registrationToken };
    },

    /**
     * Strapi's `updateById`: null when no such user (or, with `guard`, when
     * the user no longer matches it: a registration or reset token used
     * meanwhile). The Super Admin rule first, then the write.
     */
    async update(id: number, changes: UserChanges, guard?: Record<string, string>, mayGrant?: GrantCheck): Promise<AdminUser | null> {
      const values: Record<string, unknown> = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      if (typeof changes.password === 'string') values.password = await hashPassword(changes.password);
      const updated = await app.db.transaction(async () => {
        await app.db.lock(typeof changes.email === 'string' ? [SUPER_ADMINS_LOCK, emailLock(changes.email)] : [SUPER_ADMINS_LOCK]);
        // Strapi checks the email first, so a taken one is refused even for an id naming no user.
        if (typeof changes.email === 'string' && (await users.emailTaken(changes.email, id))) throw new ApplicationError('A user with this email address already exists');
        if (guard && (await query().count({ where: { ...guard, id } })) === 0) return false;
        const user = await users.findWithRoles(id);
        if (!user) return false;
        // Editing a user (its password, its email) is taking its roles: only an admin who could give them may.
        await mayGrant?.((user.roles ?? []).map((role) => role.id));
        if (changes.roles !== undefined) {
          values.roles = await roleIds(changes.roles);
          await mayGrant?.(values.roles as number[]);
          const superAdmin = await superAdminRoleId();
          if (!(values.roles as number[]).includes(superAdmin ?? -1) && (await isLastSuperAdmin(user))) throw new ValidationError(LAST_SUPER_ADMIN);
        }
        if (changes.isActive === false && (await isLastSuperAdmin(user))) throw new ValidationError(LAST_SUPER_ADMIN);
        await query().update({ where: { id }, data: values });
        return true;
      });
      return updated ? users.findWithRoles(id) : null;
    },

    /** Strapi's `deleteById`: the deleted user as it was (with its roles), or null when no such user. */
    async deleteOne(id: number, mayGrant?: GrantCheck): Promise<AdminUser | null> {
      return app.db.transaction(async () => {
        await app.db.lock([SUPER_ADMINS_LOCK]);
        const user = await users.findWithRoles(id);
        if (!user) return null;
        await mayGrant?.((user.roles ?? []).map((role) => role.id));
        if (await isLastSuperAdmin(user)) throw new ValidationError(LAST_SUPER_ADMIN);
        await query().delete({ where: { id } });
        return user;
      });
    },

    /**
     * Strapi's `deleteByIds`: refused when the ids hold every Super Admin.
     * An id naming no user is a 404 and deletes nothing (Strapi answers 500
     * after deleting the others).
     */
    async deleteMany(ids: Array<string | number>, mayGrant?: GrantCheck): Promise<AdminUser[]> {
      return app.db.transaction(async () => {
        await app.db.lock([SUPER_ADMINS_LOCK]);
        const wanted = [...new Set(ids.map((id) => userId(id)))];
        const found = wanted.includes(null) ? [] : await query().findMany({ where: { id: { $in: wanted as number[] } }, orderBy: [{ id: 'asc' }] });
        if (found.length !== wanted.length) throw new NotFoundError('User not found');
        const byId = new Map(found.map((user) => [user.id, user]));
        const superAdmins = await users.superAdminCount();
        if (superAdmins > 0 && superAdmins === (await users.superAdminCount(wanted as number[]))) throw new ValidationError(LAST_SUPER_ADMIN);
        const deleted = await users.withRoles((wanted as number[]).map((id) => byId.get(id) as Entity));
        await mayGrant?.([...new Set(deleted.flatMap((user) => (user.roles ?? []).map((role) => role.id)))]);
        await query().deleteMany({ where: { id: { $in: wanted as number[] } } });
        return deleted;
      });
    },
  };
}

export type UserManagement = ReturnType<typeof userManagement>;

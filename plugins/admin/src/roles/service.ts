/**
 * Admin roles in `admin_roles`, as `@strapi/admin` 4.26.2's role service
 * keeps them: a unique name, a code made from it (`<kebab-name>-<time in
 * base 36>`) that never changes, users counted through the link table, and
 * the Super Admin role neither edited nor deleted; a role still held by a
 * user is not deleted. Writes run in a transaction under one lock, so a name
 * checked free is still free when it is written, and a deleted role's
 * permissions go with it.
 */
import { ApplicationError, ValidationError } from '@tessera/errors';
import type { App, Entity } from '@tessera/core';
import { PERMISSION_UID, ROLE_UID } from '../content-types';
import { SUPER_ADMIN_CODE } from '../roles';

/** A role as the routes answer it (Strapi's `sanitizeRole`: no users or permissions), with `usersCount` when listed. */
export interface RoleAnswer {
  id: number;
  name: string;
  code: string;
  description: string | null;
  createdAt: unknown;
  updatedAt: unknown;
  usersCount?: number;
}

const ROLE_FIELDS = ['id', 'name', 'code', 'description', 'createdAt', 'updatedAt'];
const LOCK = 'admin:roles';

/** A route's `:id`: a positive integer, else no role (Strapi finds none). */
export function roleId(raw: unknown): number | null {
  const text = String(raw);
  return /^[1-9]\d{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

function answer(row: Entity, usersCount?: number): RoleAnswer {
  const role = Object.fromEntries(ROLE_FIELDS.map((key) => [key, key === 'description' ? row[key] ?? null : row[key]])) as unknown as RoleAnswer;
  if (usersCount !== undefined) role.usersCount = usersCount;
  return role;
}

/** `users: { count: N }` as the query engine answers a count populate. */
function countOf(row: Entity): number {
  const users = row.users as { count?: unknown } | undefined;
  return Number(users?.count ?? 0);
}

/** Strapi's `_.kebabCase` for the code prefix: words of letters and digits, lower-cased, joined by dashes. */
function kebab(name: string): string {
  const words = name.replace(/([a-z\d])([A-Z])/g, '$1 $2').match(/[A-Za-z\d]+/g) ?? [];
  return words.map((word) => word.toLowerCase()).join('-');
}

export function roleService(app: App) {
  const roles = () => app.db.query(ROLE_UID);

  async function nameTaken(name: string, exceptId?: number): Promise<boolean> {
    const where = exceptId === undefined ? { name } : { name, id: { $ne: exceptId } };
    return (await roles().count({ where })) > 0;
  }

  /** Strapi's `checkRolesIdForDeletion`, worded as its delete validators word it (path `id` or `ids`). */
  async function checkDeletable(ids: number[], path: string): Promise<void> {
    if (ids.length === 0) return;
    const found = await roles().findMany({ where: { id: { $in: ids } }, select: ['id', 'code'], populate: { users: { count: true } } });
    const refuse = (message: string) => ValidationError.fromIssues([{ path: [path], message, name: 'ValidationError' }]);
    if (found.some((role) => role.code === SUPER_ADMIN_CODE)) throw refuse('You cannot delete the super admin role');
    if (found.some((role) => countOf(role) !== 0)) throw refuse('Some roles are still assigned to some users');
  }

  return {
    checkDeletable,

    async list(): Promise<RoleAnswer[]> {
      const rows = await roles().findMany({ select: ROLE_FIELDS, populate: { users: { count: true } }, orderBy: [{ id: 'asc' }] });
      return rows.map((row) => answer(row, countOf(row)));
    },

    async find(id: number | null): Promise<(RoleAnswer & { isSuperAdmin: boolean }) | null> {
      if (id === null) return null;
      const row = await roles().findOne({ where: { id }, select: ROLE_FIELDS, populate: { users: { count: true } } });
      return row ? { ...answer(row, countOf(row)), isSuperAdmin: row.code === SUPER_ADMIN_CODE } : null;
    },

    async create(input: { name: string; description?: string | null }): Promise<RoleAnswer> {
      return app.db.transaction(async () => {
        await app.db.lock([LOCK]);
        if (await nameTaken(input.name)) throw new ApplicationError(`The name must be unique and a role with name \`${input.name}\` already exists.`);
        const data: Record<string, unknown> = { name: input.name, code: `${kebab(input.name)}-${Date.now().toString(36)}` };
        if (input.description !== undefined) data.description = input.description;
        return answer(await roles().create({ data }));
      });
    },

    async update(id: number, input: { name?: string; description?: string | null }): Promise<RoleAnswer> {
      return app.db.transaction(async () => {
        await app.db.lock([LOCK]);
        if (input.name !== undefined && (await nameTaken(input.name, id))) {
          throw new ApplicationError(`The name must be unique and a role with name \`${input.name}\` already exists.`);
        }
        // An empty update still stamps updatedAt, as Strapi's does.
        const updated = await roles().update({ where: { id }, data: { ...input, updatedAt: new Date() } });
        if (!updated) throw new ApplicationError('role.notFound');
        return answer(updated);
      });
    },

    /** The roles deleted, in the order asked; unknown ids are skipped. */
    async delete(rawIds: unknown[], path: 'id' | 'ids'): Promise<RoleAnswer[]> {
      const ids = rawIds.map(roleId).filter((id): id is number => id !== null);
      return app.db.transaction(async () => {
        await app.db.lock([LOCK]);
        await checkDeletable(ids, path);
        if (ids.length === 0) return [];
        const found = await roles().findMany({ where: { id: { $in: ids } }, select: ROLE_FIELDS });
        await app.db.query(PERMISSION_UID).deleteMany({ where: { role: { id: { $in: ids } } } });
        await roles().deleteMany({ where: { id: { $in: ids } } });
        return ids.map((id) => found.find((row) => row.id === id)).filter((row): row is Entity => row !== undefined).map((row) => answer(row));
      });
    },
  };
}

export type RoleService = ReturnType<typeof roleService>;

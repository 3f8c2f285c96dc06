/**
 * Admin permissions in `admin_permissions` (linked to their role through
 * `admin_permissions_role_links`), read and written as Strapi 4.26.2's
 * permission service does: a permission is its action, subject, properties
 * and conditions; assigning a role a list keeps the equal ones (ids kept),
 * deletes the others and adds what is missing.
 */
import type { App } from '@tessera/core';
import { NotFoundError } from '@tessera/errors';
import { PERMISSION_UID, ROLE_UID } from '../content-types';
import type { AdminPermission } from '../contract';

/** What a permission says, without its id. */
export interface PermissionInput {
  action: string;
  subject?: string | null;
  properties?: Record<string, unknown>;
  conditions?: string[];
  actionParameters?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Properties without undefined members, keys sorted: how two permissions are compared. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => [key, canonical(value[key])]),
  );
}

export function samePermission(a: PermissionInput, b: PermissionInput): boolean {
  return (
    a.action === b.action &&
    (a.subject ?? null) === (b.subject ?? null) &&
    JSON.stringify(canonical(a.properties ?? {})) === JSON.stringify(canonical(b.properties ?? {})) &&
    JSON.stringify([...(a.conditions ?? [])].sort()) === JSON.stringify([...(b.conditions ?? [])].sort())
  );
}

export function toPermission(row: Record<string, unknown>): AdminPermission {
  return {
    id: Number(row.id),
    action: String(row.action),
    actionParameters: row.actionParameters ?? {},
    subject: typeof row.subject === 'string' ? row.subject : null,
    properties: isRecord(row.properties) ? row.properties : {},
    conditions: Array.isArray(row.conditions) ? row.conditions : [],
  };
}

export function permissionStore(app: App) {
  const query = () => app.db.query(PERMISSION_UID);

  return {
    async ofRole(roleId: number): Promise<AdminPermission[]> {
      const rows = await query().findMany({ where: { role: { id: roleId } }, orderBy: [{ id: 'asc' }] });
      return rows.map(toPermission);
    },

    async all(): Promise<AdminPermission[]> {
      return (await query().findMany({ orderBy: [{ id: 'asc' }] })).map(toPermission);
    },

    /**
     * The rows first, then every link to the role in one relation write from the role's side. Linked one by one
     * from each permission, a role's list was renumbered at every row: a fresh database's first boot, giving the
     * three roles their ~300 permissions, sent about 2,000 statements.
     */
    async add(roleId: number, permissions: readonly PermissionInput[]): Promise<AdminPermission[]> {
      if (permissions.length === 0) return [];
      const rows = permissions.map((permission) => ({
        action: permission.action,
        actionParameters: permission.actionParameters ?? {},
        subject: permission.subject ?? null,
        properties: canonicalProperties(permission.properties),
        conditions: permission.conditions ?? [],
      }));
      return app.db.transaction(async () => {
        const { ids } = await query().createMany({ data: rows });
        const linked = await app.db.query(ROLE_UID).update({ where: { id: roleId }, data: { permissions: { connect: ids } } });
        if (!linked) throw new NotFoundError(`No role with id ${roleId}`);
        return rows.map((row, index) => toPermission({ ...row, id: ids[index] }));
      });
    },

    async remove(ids: readonly number[]): Promise<void> {
      if (ids.length > 0) await query().deleteMany({ where: { id: { $in: [...ids] } } });
    },

    async setProperties(id: number, properties: Record<string, unknown>): Promise<void> {
      await query().update({ where: { id }, data: { properties } });
    },

    /**
     * Strapi's `assignPermissions`: the role holds exactly `wanted` afterwards; equal permissions keep their rows;
     * `prepare` shapes the added ones as they are stored (compared as given, as Strapi compares them).
     */
    async assign(roleId: number, wanted: readonly PermissionInput[], prepare: (permission: PermissionInput) => PermissionInput = (permission) => permission): Promise<AdminPermission[]> {
      const existing = await this.ofRole(roleId);
      const kept = existing.filter((row) => wanted.some((permission) => samePermission(row as PermissionInput, permission)));
      const stale = existing.filter((row) => !kept.includes(row));
      const missing = wanted.filter((permission) => !existing.some((row) => samePermission(row as PermissionInput, permission)));
      await this.remove(stale.map((row) => row.id));
      return [...kept, ...(await this.add(roleId, missing.map(prepare)))];
    },
  };
}

/** Strapi stores `properties` without undefined members (`{ fields: undefined }` is `{}`). */
function canonicalProperties(properties: Record<string, unknown> | undefined): Record<string, unknown> {
  return canonical(properties ?? {}) as Record<string, unknown>;
}

export type PermissionStore = ReturnType<typeof permissionStore>;

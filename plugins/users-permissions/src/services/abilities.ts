/**
 * What each role may do, read from `up_permissions` and cached per role.
 * The plugin is the kernel's permission provider: the anonymous caller gets
 * the `public` role's actions. A write to permissions or roles — through
 * this plugin, `strapi.query(...)` or the entity service — clears the cache
 * in its lifecycle hook and again once its transaction commits, so the next
 * request sees the change without a restart. Other processes' writes arrive
 * through the database's committed-write notifications (PostgreSQL
 * LISTEN/NOTIFY); where there are none (SQLite files shared by workers, a
 * notification channel that was down), entries also expire after
 * `permissionsCacheTtl` ms, which bounds how long they may lag.
 */
import { ActionSet, type App, type PermissionProvider } from '@tessera/core';
import { PERMISSION_UID, ROLE_UID } from '../content-types';

export class RoleAbilities implements PermissionProvider {
  readonly name = 'users-permissions';
  private readonly byRole = new Map<string, { ability: Promise<ActionSet>; expiresAt: number }>();

  constructor(
    private readonly app: App,
    private readonly ttlMs: () => number,
  ) {}

  publicAbility(): Promise<ActionSet> {
    return this.load('type:public', { role: { type: 'public' } });
  }

  roleAbility(roleId: number): Promise<ActionSet> {
    return this.load(`id:${roleId}`, { role: { id: roleId } });
  }

  invalidate(): void {
    this.byRole.clear();
  }

  /** Lifecycle subscriber: any write to roles or permissions empties the cache now and after commit. */
  watchWrites(): void {
    const clear = async () => {
      this.invalidate();
      await this.app.db.sql.afterCommit(() => this.invalidate());
    };
    this.app.db.lifecycles.subscribe({ models: [PERMISSION_UID, ROLE_UID], afterCreate: clear, afterUpdate: clear, afterDelete: clear });
    // Writes by other processes (and `*`: the channel was down, anything may have changed).
    this.app.db.onCommittedWrite((uid) => {
      if (uid === PERMISSION_UID || uid === ROLE_UID || uid === '*') this.invalidate();
    });
  }

  private load(key: string, where: Record<string, unknown>): Promise<ActionSet> {
    const now = Date.now();
    const cached = this.byRole.get(key);
    if (cached && cached.expiresAt > now) return cached.ability;
    const ability = this.app.db
      .query(PERMISSION_UID)
      .findMany({ where, select: ['action'] })
      .then((rows) => new ActionSet(rows.map((row) => String(row.action))));
    // A failed read is not cached: the next request tries again.
    ability.catch(() => this.byRole.delete(key));
    this.byRole.set(key, { ability, expiresAt: now + this.ttlMs() });
    return ability;
  }
}

/**
 * `strapi.admin`: Tessera has no admin panel. Plugins whose server side
 * registers admin permission actions or conditions (in `register` or
 * `bootstrap`) still run: what they register is recorded here
 * (`strapi.admin.registered`), one line per plugin is logged, and nothing
 * throws. Nothing reads these actions; there is no admin API to grant them.
 */
import type { Logger } from '../logger';

export interface AdminAction {
  uid?: string;
  pluginName?: string;
  section?: string;
  displayName?: string;
  [key: string]: unknown;
}

export interface AdminRegistrations {
  actions: AdminAction[];
  conditions: Array<Record<string, unknown>>;
}

export function createAdminSurface(log: () => Logger) {
  const registered: AdminRegistrations = { actions: [], conditions: [] };
  const told = new Set<string>();
  const note = (who: string | undefined, what: string) => {
    const key = who ?? 'app';
    if (told.has(key)) return;
    told.add(key);
    log().info(`admin: ${key} registers admin ${what}; recorded only (Tessera has no admin panel)`);
  };
  const provider = <T extends Record<string, unknown>>(list: T[], what: string) => ({
    register(item: T) {
      list.push(item);
      note(item.pluginName as string | undefined, what);
      return this;
    },
    async registerMany(items: T[]) {
      for (const item of items ?? []) this.register(item);
      return this;
    },
    has(uid: string) {
      return list.some((item) => item.uid === uid);
    },
    values() {
      return [...list];
    },
  });
  return {
    registered,
    services: {
      permission: {
        actionProvider: provider(registered.actions, 'permission actions'),
        conditionProvider: provider(registered.conditions, 'permission conditions'),
      },
    },
  };
}

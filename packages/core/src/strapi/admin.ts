/**
 * `strapi.admin`: Tessera has no admin panel. Plugins whose server side
 * registers admin permission actions or conditions (in `register` or
 * `bootstrap`) still run: what they register is recorded here
 * (`strapi.admin.registered`), one line per plugin is logged, and nothing
 * throws. Nothing reads these actions; there is no admin API to grant them.
 * Actions are found by Strapi's action id (`get`, `has`): `plugin::<plugin>.<uid>`,
 * `admin::<uid>` or `api::<uid>`. The content manager's explorer actions are
 * there from the start, as Strapi's own registers them, since plugins edit
 * them (strapi-plugin-soft-delete renames `explorer.delete`).
 */
import type { Logger } from '../logger';

export interface AdminAction {
  uid?: string;
  pluginName?: string;
  section?: string;
  displayName?: string;
  [key: string]: unknown;
}

/** The content manager's entry actions, which Strapi registers itself. */
const CONTENT_MANAGER_ACTIONS: AdminAction[] = ['create', 'read', 'update', 'delete', 'publish'].map((verb) => ({
  uid: `explorer.${verb}`,
  displayName: verb[0].toUpperCase() + verb.slice(1),
  section: 'contentTypes',
  pluginName: 'content-manager',
  actionId: `plugin::content-manager.explorer.${verb}`,
}));

/** Strapi's action id of a registered action. */
function actionId(item: Record<string, unknown>): string {
  if (typeof item.actionId === 'string') return item.actionId;
  if (item.pluginName === 'admin') return `admin::${item.uid}`;
  return item.pluginName ? `plugin::${item.pluginName}.${item.uid}` : `api::${item.uid}`;
}

export interface AdminRegistrations {
  actions: AdminAction[];
  conditions: Array<Record<string, unknown>>;
}

export function createAdminSurface(log: () => Logger) {
  const registered: AdminRegistrations = { actions: CONTENT_MANAGER_ACTIONS.map((action) => ({ ...action })), conditions: [] };
  const told = new Set<string>();
  const note = (who: string | undefined, what: string) => {
    const key = who ?? 'app';
    if (told.has(key)) return;
    told.add(key);
    log().info(`admin: ${key} registers admin ${what}; recorded only (Tessera has no admin panel)`);
  };
  const provider = <T extends Record<string, unknown>>(list: T[], what: string) => ({
    register(item: T) {
      list.push(Object.assign(item, { actionId: actionId(item) }));
      note(item.pluginName as string | undefined, what);
      return this;
    },
    async registerMany(items: T[]) {
      for (const item of items ?? []) this.register(item);
      return this;
    },
    /** The registered item with this action id (or uid), as Strapi's provider answers it: the object itself. */
    get(id: string): T | undefined {
      return list.find((item) => item.actionId === id || item.uid === id);
    },
    has(id: string) {
      return this.get(id) !== undefined;
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

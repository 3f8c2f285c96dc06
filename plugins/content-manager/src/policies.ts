/**
 * `plugin::content-manager.hasPermissions`, Strapi 4.26.2's content-manager policy, for the admin routes that name
 * it (i18n's locale routes, and plugins' and apps' admin routes written for Strapi): the signed-in admin may do
 * every action of `config.actions` — or at least one, with `hasAtLeastOne: true` — on the route's `:model`, or with
 * no subject when the route has none. Like Strapi's, it checks the action alone (no conditions, fields or locales:
 * the handlers apply those). A route whose config Strapi's validator would refuse stops the boot, naming the route.
 */
import { routeTable, type App, type PolicyFunction } from '@tessera/core';
import { ConfigurationError } from '@tessera/errors';
import { adminAbility } from '@tessera/plugin-admin';

export const HAS_PERMISSIONS_POLICY = 'hasPermissions';
const POLICY_UID = `plugin::content-manager.${HAS_PERMISSIONS_POLICY}`;

interface HasPermissionsConfig {
  actions: string[];
  hasAtLeastOne: boolean;
}

function configOf(config: unknown): HasPermissionsConfig {
  const { actions = [], hasAtLeastOne = false } = (config ?? {}) as { actions?: unknown; hasAtLeastOne?: unknown };
  if (!Array.isArray(actions) || !actions.every((action): action is string => typeof action === 'string') || typeof hasAtLeastOne !== 'boolean') {
    throw new ConfigurationError(`${POLICY_UID}: config is { actions: string[], hasAtLeastOne?: boolean }`);
  }
  return { actions, hasAtLeastOne };
}

export const hasPermissions: PolicyFunction = ({ ctx }, config) => {
  const { actions, hasAtLeastOne } = configOf(config);
  const ability = adminAbility(ctx);
  const model: unknown = ctx.params?.model;
  const can = (action: string) => ability.can(action, typeof model === 'string' ? model : undefined);
  return hasAtLeastOne ? actions.some(can) : actions.every(can);
};

/** Every route naming the policy has a config it can read (checked once at bootstrap, when every router is known). */
export function checkHasPermissionsConfigs(app: App): void {
  for (const row of routeTable(app)) {
    for (const reference of row.route.config?.policies ?? []) {
      if (typeof reference !== 'object' || reference.name !== POLICY_UID) continue;
      try {
        configOf(reference.config);
      } catch (error) {
        throw new ConfigurationError(`route ${row.method} ${row.path}: ${(error as Error).message}`);
      }
    }
  }
}

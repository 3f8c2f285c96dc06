/**
 * Strapi's admin policies, as its admin route files name them:
 * `admin::isAuthenticatedAdmin` (a signed-in admin; the kernel has already
 * refused anyone else on an admin route, this keeps a route's declaration
 * honest where it is mounted `auth: false` or under another strategy) and
 * `admin::hasPermissions` with `config: { actions }` (every listed action:
 * `'admin::users.read'`, `[action, subject]` or `{ action, subject }`).
 * A refusal is the route chain's: 401 for no admin, 403 for a missing action.
 */
import { ConfigurationError, UnauthorizedError } from '@tessera/errors';
import { namedReference, routeTable, type App, type PolicyContext, type PolicyFunction } from '@tessera/core';
import { USER_ABILITY, type AdminAbility } from './contract';

export const IS_AUTHENTICATED_ADMIN = 'admin::isAuthenticatedAdmin';
export const HAS_PERMISSIONS = 'admin::hasPermissions';

/** One required permission: an action, optionally on a subject. */
export interface RequiredPermission {
  action: string;
  subject?: string;
}

/** A `hasPermissions` route config: `{ actions: [...] }`, in Strapi's three spellings. */
export function requiredPermissions(config: unknown): RequiredPermission[] {
  const actions = (config as { actions?: unknown } | null)?.actions;
  if (actions === undefined) return [];
  if (!Array.isArray(actions)) throw new ConfigurationError(`${HAS_PERMISSIONS}: config.actions must be a list`);
  return actions.map((item: unknown) => {
    if (typeof item === 'string' && item !== '') return { action: item };
    if (Array.isArray(item) && item.length >= 1 && item.length <= 2 && item.every((part) => typeof part === 'string')) {
      return item.length === 2 ? { action: item[0], subject: item[1] } : { action: item[0] };
    }
    const object = item as { action?: unknown; subject?: unknown } | null;
    if (typeof object?.action === 'string' && (object.subject === undefined || typeof object.subject === 'string')) {
      return object.subject === undefined ? { action: object.action } : { action: object.action, subject: object.subject };
    }
    throw new ConfigurationError(`${HAS_PERMISSIONS}: each of config.actions is an action, [action, subject] or { action, subject }`);
  });
}

function abilityOn(context: PolicyContext): AdminAbility | undefined {
  const state = context.ctx.state as Record<string, unknown>;
  return state.isAuthenticated === true ? (state[USER_ABILITY] as AdminAbility | undefined) : undefined;
}

export const isAuthenticatedAdmin: PolicyFunction = (context) => {
  if (!abilityOn(context)) throw new UnauthorizedError();
  return true;
};

export const hasPermissions: PolicyFunction = (context, config) => {
  const ability = abilityOn(context);
  if (!ability) throw new UnauthorizedError();
  return requiredPermissions(config).every(({ action, subject }) => ability.can(action, subject));
};

/** Every route's `admin::hasPermissions` config checked once at boot (Strapi validates a policy's config so): a bad one stops the boot, naming the route. */
export function checkPermissionPolicies(app: App): void {
  for (const row of routeTable(app)) {
    for (const reference of row.route.config?.policies ?? []) {
      if (typeof reference === 'function') continue;
      const { name, config } = namedReference(reference);
      if (name !== HAS_PERMISSIONS) continue;
      try {
        requiredPermissions(config);
      } catch (error) {
        throw new ConfigurationError(`route ${row.method} ${row.path}: ${(error as Error).message}`);
      }
    }
  }
}

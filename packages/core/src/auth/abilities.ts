/**
 * Abilities: what a caller may do, as a set of action names
 * (`api::article.article.find`). The public role's actions come from
 * `config/permissions.ts` (`{ public: [...] }`); plugins may add roles later.
 */
import type { Ability } from '../types';

export class ActionSet implements Ability {
  private readonly actions: ReadonlySet<string>;

  constructor(actions: Iterable<string>) {
    this.actions = new Set(actions);
  }

  can(action: string): boolean {
    return this.actions.has(action);
  }

  list(): string[] {
    return [...this.actions];
  }

  isEmpty(): boolean {
    return this.actions.size === 0;
  }
}

export const allowEverything: Ability = { can: () => true };

/** Read-only: every `find` and `findOne`. */
export const readOnly: Ability = {
  can: (action) => action.endsWith('.find') || action.endsWith('.findOne'),
};

export function rolesFromConfig(config: unknown): Map<string, ActionSet> {
  const roles = new Map<string, ActionSet>();
  if (typeof config !== 'object' || config === null) return roles;
  for (const [role, actions] of Object.entries(config as Record<string, unknown>)) {
    if (Array.isArray(actions)) roles.set(role, new ActionSet(actions.filter((action): action is string => typeof action === 'string')));
  }
  return roles;
}

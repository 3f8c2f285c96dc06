/**
 * What a caller may read and do. The anonymous caller's actions come from a
 * permission provider: by default the `public` role of `config/permissions.ts`;
 * the users-permissions plugin swaps in the public role it stores in the
 * database (`app.permissions.use(provider)`). Credentialed callers carry their
 * own ability from their auth strategy (API tokens, JWTs).
 * What reading through another type needs is the caller's (`Caller.mayRead`).
 */
import type { Ability, PermissionProvider } from '../types';
import { ActionSet, rolesFromConfig } from './abilities';

export class ConfigPermissions implements PermissionProvider {
  readonly name = 'config';
  private readonly ability: ActionSet;

  constructor(config: unknown) {
    this.ability = rolesFromConfig(config).get('public') ?? new ActionSet([]);
  }

  publicAbility(): Ability {
    return this.ability;
  }
}

export class Permissions {
  private provider: PermissionProvider;

  constructor(initial: PermissionProvider) {
    this.provider = initial;
  }

  /** Replaces the provider (the users-permissions plugin calls this in register or bootstrap). */
  use(provider: PermissionProvider): void {
    this.provider = provider;
  }

  get providerName(): string {
    return this.provider.name;
  }

  publicAbility(): Ability | Promise<Ability> {
    return this.provider.publicAbility();
  }
}

/**
 * Authentication: a bearer token is offered to each registered strategy in
 * turn (API tokens first; users-permissions adds JWTs). No header → the
 * public caller. A token no strategy recognises → 401.
 */
import { UnauthorizedError } from '@tessera/errors';
import type { Ability, AuthState, AuthStrategy } from '../types';

/** The public caller's strategy (no credential sent). */
const PUBLIC = { name: 'public' } as const;

export function publicAuth(ability: Ability): AuthState {
  return { strategy: PUBLIC, credentials: null, ability };
}

export async function authenticate(header: string | undefined, strategies: AuthStrategy[], publicAbility: () => Ability | Promise<Ability>): Promise<AuthState> {
  if (header === undefined || header === '') return publicAuth(await publicAbility());
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError();
  for (const strategy of strategies) {
    const state = await strategy.authenticate(match[1]);
    if (state) return state;
  }
  throw new UnauthorizedError();
}

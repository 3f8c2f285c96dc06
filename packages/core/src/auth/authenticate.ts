/**
 * Authentication, by router type as Strapi's `auth` service does it.
 *
 * Content-API routes: a bearer token is offered to each content-API strategy
 * in turn (API tokens first; users-permissions adds JWTs). No header → the
 * public caller. A token no strategy recognises → 401.
 *
 * Admin routes (routers of `type: 'admin'`): only the strategies registered
 * for type `admin` are asked (the admin plugin's JWT strategy), so a content-API
 * credential never passes there and an admin token never passes on the content
 * API. There is no anonymous admin caller: no header, or a token no admin
 * strategy recognises, is Strapi's 401 "Missing or invalid credentials".
 */
import { UnauthorizedError } from '@tessera/errors';
import type { Ability, AuthState, AuthStrategy } from '../types';

/** The public caller's strategy (no credential sent). */
const PUBLIC = { name: 'public' } as const;

export function publicAuth(ability: Ability): AuthState {
  return { strategy: PUBLIC, credentials: null, ability };
}

/** The token of an `Authorization: Bearer <token>` header; null for any other header. */
function bearerToken(header: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

async function firstRecognising(token: string, strategies: AuthStrategy[]): Promise<AuthState | null> {
  for (const strategy of strategies) {
    const state = await strategy.authenticate(token);
    if (state) return state;
  }
  return null;
}

export async function authenticate(header: string | undefined, strategies: AuthStrategy[], publicAbility: () => Ability | Promise<Ability>): Promise<AuthState> {
  if (header === undefined || header === '') return publicAuth(await publicAbility());
  const token = bearerToken(header);
  const state = token === null ? null : await firstRecognising(token, strategies);
  if (!state) throw new UnauthorizedError();
  return state;
}

/** The caller of an admin route, by the admin strategies only; 401 when none recognises the header. */
export async function authenticateAdmin(header: string | undefined, strategies: AuthStrategy[]): Promise<AuthState> {
  const token = header ? bearerToken(header) : null;
  const state = token === null ? null : await firstRecognising(token, strategies);
  if (!state) throw new UnauthorizedError();
  return state;
}

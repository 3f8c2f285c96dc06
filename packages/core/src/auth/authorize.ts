/**
 * The one authorization decision, for REST routes, plugin routes and GraphQL
 * resolvers alike: may this caller perform one of these actions?
 *
 * Refusals follow Strapi v4's answers: an anonymous caller whose public role
 * grants nothing at all is asked for credentials (401, as Strapi's
 * users-permissions strategy does when the public role is empty); every other
 * refusal is a 403 — for anonymous callers on an app with public permissions
 * too (reference samples 26, 27, 92, 93) and for credentials lacking the action.
 */
import { ForbiddenError, UnauthorizedError } from '@tessera/errors';
import type { AuthState } from '../types';

export function authorizeAction(auth: AuthState, actions: readonly string[]): void {
  if (actions.some((action) => auth.ability.can(action))) return;
  if (auth.strategy === 'public' && auth.ability.isEmpty?.() === true) throw new UnauthorizedError();
  throw new ForbiddenError();
}

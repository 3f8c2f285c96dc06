/**
 * The one authorization decision's rules and words, for REST routes, plugin
 * routes, GraphQL resolvers and `strapi.auth.verify` alike: may this caller
 * do what a route or resolver config asks (`auth: false`, `{ scope }`, or
 * nothing said)? The caller (auth/caller.ts, `Caller.refusal`) decides.
 *
 * Strapi v4's rules, which every caller of this module keeps:
 *   - `false`: anyone;
 *   - a scope (or the route's or resolver's own action when none is given):
 *     every one of these actions (Strapi's strategies check `every`);
 *   - no scope at all (a custom resolver, `strapi.auth.verify(auth, {})`):
 *     any credential, never the anonymous caller;
 *   - the strategy that recognised the caller may have its own rule
 *     (`AuthState.strategy.scopeRefusal`): API tokens keep Strapi's — full
 *     access passes anything, read-only only scopes that are all reads, a
 *     custom token only scopes it holds all of, and neither of the last two
 *     a requirement without a scope;
 *   - an anonymous caller whose public role grants nothing is not
 *     authenticated at all (Strapi's users-permissions strategy answers
 *     `authenticated: false`): it is asked for credentials (401) wherever a
 *     requirement applies, and a transport that authenticates before it
 *     authorizes (GraphQL) refuses it up front with `requireCaller`.
 * Lacking the action is a 403: for anonymous callers on an app with public
 * permissions too (reference samples 26, 27, 92, 93) and for credentials.
 * The wording is the transport's, the decision is this one: REST answers as
 * Strapi's route chain (`authorize` below), GraphQL answers every refusal
 * as Strapi's resolvers do (`ForbiddenError`, "Forbidden access").
 */
import { ForbiddenError, UnauthorizedError } from '@tessera/errors';
import type { AuthRequirement, Caller, Refusal } from './caller';

/** What a route or resolver config asks of its caller (Strapi's `config.auth`). */
export type { AuthRequirement, Refusal } from './caller';

/** A scope as Strapi's `castArray` reads one: a single action, a list, or none. */
export function scopeList(scope: unknown): readonly string[] | undefined {
  if (scope === undefined || scope === null) return undefined;
  return (Array.isArray(scope) ? scope : [scope]).map(String);
}

/**
 * The decision as REST answers it (Strapi's route chain): no caller is
 * "Missing or invalid credentials", a refusal of the one there is
 * `ctx.unauthorized()` / `ctx.forbidden()`: "Unauthorized" or "Forbidden".
 */
export function authorize(caller: Caller, requirement: AuthRequirement, ownAction?: string): void {
  const refusal = caller.refusal(requirement, ownAction);
  if (refusal !== undefined) throw restRefusal(refusal);
}

/** A refusal in REST's words (Strapi's route chain). */
export function restRefusal(refusal: Refusal): Error {
  if (refusal === 'unauthenticated') return new UnauthorizedError();
  if (refusal === 'credential-required') return new UnauthorizedError('Unauthorized');
  return new ForbiddenError();
}

/** A policy's answer lets the request through only when it is `true` or nothing (Strapi's `[true, undefined].includes(result)`). */
export function policyAdmits(result: unknown): boolean {
  return result === true || result === undefined;
}

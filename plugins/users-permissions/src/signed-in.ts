/**
 * Whether a user of this plugin is behind a request: the one test `me`, change-password and GraphQL's `me` make.
 * Its own module: the services ask it, and the strategy (which types itself with the services) names it.
 */
import type { Caller } from '@tessera/core';

export const STRATEGY_NAME = 'users-permissions';

/**
 * The id of the user signed in with this plugin's JWT, or undefined when no user of ours is behind the request
 * (an API token, the public caller, another plugin's strategy).
 */
export function signedInUserId(caller: Caller): number | undefined {
  const id = caller.userId;
  return caller.strategyName === STRATEGY_NAME && typeof id === 'number' ? id : undefined;
}

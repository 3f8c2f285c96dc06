/**
 * The kernel auth strategy for user JWTs. The kernel offers a bearer token
 * to API tokens first, then here. A token shaped like a JWT is ours: if it
 * does not verify, has expired, predates the user's last password change,
 * or its user is gone, blocked or (when
 * confirmation is required) unconfirmed, the answer is 401 — never the
 * public role. A valid one carries its user and the user's role's actions.
 */
import { ActionSet, type AuthState, type AuthStrategy } from '@tessera/core';
import { UnauthorizedError } from '@tessera/errors';
import type { RoleAbilities } from './services/abilities';
import { passwordChangedAtOf, survivesPasswordChange } from './password-change';
import { looksLikeJwt, type JwtService } from './services/jwt';
import type { UserService } from './services/user';
import { STRATEGY_NAME } from './signed-in';

export { STRATEGY_NAME } from './signed-in';

export function jwtStrategy(deps: { jwt: () => JwtService; users: () => UserService; abilities: RoleAbilities; requireConfirmed: () => Promise<boolean> }): AuthStrategy {
  const strategy: AuthStrategy = {
    name: STRATEGY_NAME,
    callerKind: 'user',
    async authenticate(token: string): Promise<AuthState | null> {
      if (!looksLikeJwt(token)) return null;
      const claims = deps.jwt().claims(token);
      if (claims === null) throw new UnauthorizedError();
      const user = await deps.users().fetchAuthenticatedUser(claims.id);
      if (!user || user.blocked === true || (user.confirmed !== true && (await deps.requireConfirmed()))) throw new UnauthorizedError();
      // Issued before the last change of password: revoked. The stamp is private, so it leaves the credentials.
      if (!survivesPasswordChange(claims, passwordChangedAtOf(user.passwordChangedAt))) throw new UnauthorizedError();
      delete user.passwordChangedAt;
      const role = user.role as { id?: number } | null | undefined;
      const ability = typeof role?.id === 'number' ? await deps.abilities.roleAbility(role.id) : new ActionSet([]);
      return { strategy, credentials: user, ability, user };
    },
  };
  return strategy;
}

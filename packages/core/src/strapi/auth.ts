/**
 * `strapi.auth`: Strapi v4's `verify(auth, config)` — may this caller (a
 * request's `ctx.state.auth`) do what a route config asks (`false`: anything;
 * `{ scope }`: every one of these actions, one given as a string too; no scope: any credential)? The
 * one authorization decision (auth/authorize.ts), with Strapi's 401 when
 * there is no caller at all.
 *
 * `register(type, strategy)` is different in Tessera: bearer-token strategies
 * are registered on `app.authStrategies` (type `content-api`) or
 * `app.adminAuthStrategies` (type `admin`) with `authenticate(token)`.
 */
import { ConfigurationError, UnauthorizedError } from '@tessera/errors';
import { authorize, scopeList } from '../auth/authorize';
import { Caller } from '../auth/caller';
import type { AuthState } from '../types';

export const authSurface = {
  /** `scope` may be one action or a list, as Strapi's strategies `castArray` it. */
  async verify(auth: AuthState | undefined | null, config: false | { scope?: string | string[] } = {}): Promise<void> {
    if (config === false) return;
    if (!auth) throw new UnauthorizedError();
    authorize(Caller.of(auth), { scope: scopeList(config.scope) });
  },
  register(): never {
    throw new ConfigurationError(
      'strapi.auth.register is different in Tessera: add a bearer-token strategy ({ name, authenticate(token) }) to app.authStrategies (content API) or app.adminAuthStrategies (admin routes); see docs/extending.md, "The strapi object"',
    );
  },
};

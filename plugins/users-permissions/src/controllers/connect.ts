/**
 * Third-party sign-in over REST, as Strapi 4.26.2 answers it:
 * - `GET /api/connect/:provider` redirects the browser to the provider's authorize URL (grant's flow,
 *   ../oauth/grant-flow.ts), remembering the sign-in in a signed cookie;
 * - `GET /api/connect/:provider/callback` (the provider's redirect back) exchanges the code and redirects to the
 *   frontend callback of the provider's settings with `access_token` — or with `error`;
 * - `GET /api/auth/:provider/callback?access_token=` asks the provider who the token belongs to and answers
 *   `{ jwt, user }` for that account, found or made (services/providers.ts).
 * The frontend callback is the configured one, or one a connect request names that keeps its origin and path
 * (`callback.validate` of the plugin's config): never any other address.
 */
import type Koa from 'koa';
import type { App, Entity } from '@tessera/core';
import { ApplicationError, TesseraError, ValidationError } from '@tessera/errors';
import type { UsersPermissionsConfig } from '../config';
import { authorize, exchange, grantProvider, MISSING_SESSION, transport } from '../oauth/grant-flow';
import { clearGrantSession, readGrantSession, writeGrantSession } from '../oauth/grant-session';
import { ProviderRequestError } from '../oauth/provider-error';
import { enabledProvider } from '../providers';
import type { ProvidersService } from '../services/providers';

type Action = (ctx: Koa.Context) => Promise<unknown>;

export interface ConnectDependencies {
  app: App;
  config: () => UsersPermissionsConfig;
  providers: () => ProvidersService;
  /** The answer of a sign-in: Strapi's `{ jwt, user }`, the user sanitized. */
  signedIn: (user: Entity) => { jwt?: string; user: Entity };
  /** The key that signs the sign-in cookie (grant-session.ts). */
  sessionKey: () => Buffer;
}

/** The provider's redirect back to `/connect/:provider/callback` (Strapi serves both paths from one action). */
const CALLBACK_PATH = /\/connect\/[^/]+\/callback\/?$/;

export function connectActions(deps: ConnectDependencies): { connect: Action; providerCallback: (ctx: Koa.Context) => Promise<{ jwt?: string; user: Entity }> } {
  const { app } = deps;
  let warned = false;

  async function chosenCallback(ctx: Koa.Context, row: Record<string, unknown>, remembered: string | undefined): Promise<string | undefined> {
    const given: unknown = ctx.query.callback ?? remembered;
    if (given === undefined) return undefined;
    try {
      if (typeof given !== 'string') throw new Error('The callback is not a valid URL');
      await deps.config().callback.validate(given, row);
    } catch {
      throw new ValidationError('Invalid callback URL provided', { callback: given });
    }
    return given;
  }

  return {
    async connect(ctx) {
      const name = String(ctx.params.provider);
      const row = name === 'email' ? null : await enabledProvider(app, name);
      if (row === null) throw new ApplicationError('This provider is disabled');
      if (!warned && !app.config.get<string>('server.url', '').startsWith('http')) {
        warned = true;
        app.log.warn('You are using a third party provider for login. Make sure to set an absolute url in config/server (server.url): the provider redirects the browser to it.');
      }
      const cookiePath = `${app.config.get<string>('api.rest.prefix', '/api')}/connect`;
      const key = deps.sessionKey();
      const redirectUri = deps.providers().buildRedirectUri(name);
      const limits = deps.config().providerRequests;
      if (!CALLBACK_PATH.test(ctx.path)) {
        const callback = await chosenCallback(ctx, row, undefined);
        const step = authorize(grantProvider(name, row), redirectUri, callback);
        writeGrantSession(ctx, key, cookiePath, step.session);
        ctx.redirect(step.location);
        return undefined;
      }
      const session = readGrantSession(ctx, key);
      // grant without its session (or, here, with a session of another provider) cannot tell whose callback this is.
      if (session === null || session.provider !== name) {
        ctx.redirect(transport(null, MISSING_SESSION));
        return undefined;
      }
      const callback = await chosenCallback(ctx, row, session.callback);
      const provider = grantProvider(name, row);
      const output = await exchange(provider, ctx.query as Record<string, unknown>, session, redirectUri, limits);
      // A code is exchanged once: the session (and its state) is spent.
      clearGrantSession(ctx, cookiePath);
      ctx.redirect(transport(provider, output, callback));
      return undefined;
    },

    async providerCallback(ctx) {
      const name = String(ctx.params.provider);
      if ((await enabledProvider(app, name)) === null) throw new ApplicationError('This provider is disabled');
      try {
        const user = await deps.providers().connect(name, ctx.query as Record<string, unknown>);
        if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
        return deps.signedIn(user);
      } catch (error) {
        // Strapi answers any failure of the sign-in as a 400 with its message. Here only the failures of the sign-in
        // itself (its rules, the provider, a provider's code): a database's or Tessera's own 5xx keeps its answer.
        if (signInFailure(error)) throw new ApplicationError(error.message);
        throw error;
      }
    },
  };
}

function signInFailure(error: unknown): error is Error {
  if (error instanceof TesseraError) return error.status < 500;
  return error instanceof ProviderRequestError || (error instanceof Error && [Error, TypeError, RangeError].some((kind) => error.constructor === kind));
}

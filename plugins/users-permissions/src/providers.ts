/**
 * Strapi v4's third-party sign-in routes (`GET /api/connect/:provider`,
 * `GET /api/auth/:provider/callback`): Strapi looks the provider up in the
 * `grant` settings of its core store (`plugin_users-permissions_grant`) and
 * answers 400 `This provider is disabled` unless it is enabled there; every
 * provider but email is disabled until an administrator turns it on.
 * Frontends and SDKs call these routes (strapi-sdk-js' authenticateProvider),
 * and Tessera answered 404 for routes Strapi has. Tessera signs in with
 * email and password only: a provider enabled in the settings of a
 * Strapi-made database is refused with a 400 that says so, never an OAuth
 * exchange that half works.
 */
import type { App } from '@tessera/core';
import { ApplicationError } from '@tessera/errors';

async function grantSettings(app: App): Promise<Record<string, unknown>> {
  const value = await app.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'grant' });
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** Whether the grant settings enable `provider` (Strapi reads `local` as `email`). */
export async function providerEnabled(app: App, provider: string): Promise<boolean> {
  const key = provider === 'local' ? 'email' : provider;
  const settings = await grantSettings(app);
  // Tessera writes no grant settings: without them, Strapi's defaults hold (email enabled, the others not).
  if (key === 'email' && !(key in settings)) return true;
  const entry = settings[key];
  return entry !== null && typeof entry === 'object' && (entry as { enabled?: unknown }).enabled === true;
}

/** Refuses a third-party sign-in (connect or callback) as Strapi does for a disabled provider, and an enabled one as unsupported. */
export async function refuseThirdPartySignIn(app: App, provider: string): Promise<never> {
  // `email` is the password sign-in, not an OAuth provider to connect to (Strapi's grant fails on it with a 500).
  if (provider === 'email' || provider === 'local' || !(await providerEnabled(app, provider))) throw new ApplicationError('This provider is disabled');
  throw new ApplicationError(`Signing in with ${provider} is not supported: Tessera signs users in with email and password only`);
}

/**
 * What grant keeps in Strapi's koa session between `/connect/:provider` and the provider's redirect back: the
 * provider being connected, the `state` and `nonce` sent (when the provider's settings ask for them) and the
 * frontend callback the connect request chose. Tessera keeps it in one cookie of its own, signed and expiring
 * (core's `signValue`, with a key derived from the plugin's secret, so any process of the app can read it), scoped to the
 * connect routes: a callback without it, or with a forged one, is refused as grant refuses a missing session.
 */
import crypto from 'node:crypto';
import type Koa from 'koa';
import { readSignedValue, signValue } from '@tessera/core';

export interface GrantSession {
  provider: string;
  state?: string;
  nonce?: string;
  /** A frontend callback the connect request gave (`?callback=`), already validated. */
  callback?: string;
}

export const GRANT_COOKIE = 'tessera.grant';
/** How long a sign-in may take between connect and the provider's redirect back. */
const LIFETIME_MS = 60 * 60 * 1000;
const MAX_COOKIE_LENGTH = 4096;

export function writeGrantSession(ctx: Koa.Context, key: Buffer, path: string, session: GrantSession): void {
  ctx.cookies.set(GRANT_COOKIE, signValue(session, key, Date.now() + LIFETIME_MS), { httpOnly: true, sameSite: 'lax', path, secure: ctx.protocol === 'https', maxAge: LIFETIME_MS, overwrite: true });
}

export function clearGrantSession(ctx: Koa.Context, path: string): void {
  ctx.cookies.set(GRANT_COOKIE, '', { httpOnly: true, sameSite: 'lax', path, maxAge: 0, overwrite: true });
}

/** The session the request's cookie carries, or null when it is missing, forged, malformed or expired. */
export function readGrantSession(ctx: Koa.Context, key: Buffer): GrantSession | null {
  const cookie = ctx.cookies.get(GRANT_COOKIE);
  const value = cookie === undefined || cookie.length > MAX_COOKIE_LENGTH ? undefined : readSignedValue(cookie, [key]);
  if (value === null || typeof value !== 'object') return null;
  const { provider, state, nonce, callback } = value as Record<string, unknown>;
  if (typeof provider !== 'string') return null;
  const optional = (item: unknown) => (typeof item === 'string' ? item : undefined);
  return { provider, state: optional(state), nonce: optional(nonce), callback: optional(callback) };
}

/** The cookie key, derived from the plugin's secret so that it signs nothing else. */
export function grantSessionKey(secret: string): Buffer {
  return crypto.createHmac('sha256', secret).update('users-permissions grant session').digest();
}

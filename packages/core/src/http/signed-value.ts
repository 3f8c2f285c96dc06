/**
 * A value kept by the browser and trusted when it comes back: its JSON with an expiry, base64url, then `.` and an
 * HMAC-SHA256 of that under a server key. `strapi::session`'s cookie and users-permissions' OAuth sign-in cookie
 * are written this way. Reading takes several keys (the first signs, older ones still verify: `server.app.keys`).
 */
import crypto from 'node:crypto';

export type SigningKey = string | Buffer;

/** `value` signed with `key`; unreadable after `expires` (ms since the epoch), or never when undefined. */
export function signValue(value: unknown, key: SigningKey, expires?: number): string {
  const payload = Buffer.from(JSON.stringify({ value, expires: expires ?? null })).toString('base64url');
  return `${payload}.${sign(payload, key)}`;
}

/** The value `text` carries when one of `keys` signed it and it has not expired; undefined otherwise. */
export function readSignedValue(text: string | undefined, keys: readonly SigningKey[]): unknown {
  if (!text) return undefined;
  const dot = text.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const payload = text.slice(0, dot);
  const signature = Buffer.from(text.slice(dot + 1));
  const signed = keys.some((key) => {
    const expected = Buffer.from(sign(payload, key));
    return expected.length === signature.length && crypto.timingSafeEqual(expected, signature);
  });
  if (!signed) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { value?: unknown; expires?: unknown };
    if (typeof parsed.expires === 'number' && parsed.expires < Date.now()) return undefined;
    return parsed.value;
  } catch {
    return undefined;
  }
}

function sign(payload: string, key: SigningKey): string {
  return crypto.createHmac('sha256', key).update(payload).digest('base64url');
}

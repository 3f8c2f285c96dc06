/**
 * The signature a receiver checks when its webhook has a secret:
 * `X-Tessera-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `<t>.<raw body>`. The timestamp is signed too, so a captured request
 * cannot be replayed later with a new date (receivers reject old `t`).
 */
import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Tessera-Signature';

export function signatureHeader(secret: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  const digest = crypto.createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/** What a receiver does (exported for tests and Node receivers): true when `header` signs `body` with `secret` within `toleranceSeconds`. */
export function verifySignature(secret: string, body: string, header: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

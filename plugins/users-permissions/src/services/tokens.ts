/**
 * One-time codes mailed to users (password reset, email confirmation). The
 * database keeps only their SHA-256, so a leaked database cannot reset
 * anyone's password. A reset code carries its expiry in clear inside the
 * hashed value: changing it changes the hash, so it cannot be extended.
 */
import crypto from 'node:crypto';

export function digest(code: string): string {
  return crypto.createHash('sha256').update(code).digest('hex');
}

export function newCode(): string {
  return crypto.randomBytes(32).toString('hex');
}

/** `<expiry ms>.<random>` */
export function newExpiringCode(ttlMs: number, now = Date.now()): string {
  return `${now + ttlMs}.${newCode()}`;
}

export function isExpired(code: string, now = Date.now()): boolean {
  const expiry = Number(code.split('.')[0]);
  return !Number.isSafeInteger(expiry) || expiry <= now;
}

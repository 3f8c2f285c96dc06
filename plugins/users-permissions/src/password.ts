/**
 * Passwords are bcrypt hashes, as Strapi v4 stores them (`$2a$10$…`), so
 * existing hashes verify unchanged. bcrypt reads only the first 72 bytes of
 * a password: longer ones are refused rather than silently truncated.
 */
import bcrypt from 'bcryptjs';
import { ValidationError } from '@tessera/errors';

const ROUNDS = 10;
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_BYTES = 72;

export function isHash(value: unknown): value is string {
  return typeof value === 'string' && BCRYPT_HASH.test(value);
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

/** False for a missing hash too (users of external providers have none). */
export async function verifyPassword(password: string, hash: unknown): Promise<boolean> {
  if (!isHash(hash)) return false;
  return bcrypt.compare(password, hash);
}

/** A hash of nothing anyone knows: compared against when an account does not exist, so both cases cost one bcrypt. */
let decoy: Promise<string> | undefined;
export async function spendVerification(password: string): Promise<void> {
  decoy ??= bcrypt.hash(`decoy-${Math.random()}`, ROUNDS);
  await bcrypt.compare(password, await decoy);
}

/** A new password's rules, with Strapi's messages for the field `path`. */
export function checkNewPassword(value: unknown, path = 'password'): string {
  if (typeof value !== 'string' || value === '') throw ValidationError.forField([path], `${path} is a required field`);
  if (value.length < MIN_PASSWORD_LENGTH) throw ValidationError.forField([path], `${path} must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (Buffer.byteLength(value, 'utf8') > MAX_PASSWORD_BYTES) throw ValidationError.forField([path], `${path} must be at most ${MAX_PASSWORD_BYTES} bytes`);
  return value;
}

/** Lifecycle guard: hashes any plaintext `password` in a write (an existing hash is kept, so imports of Strapi hashes work). */
export async function hashPasswordsIn(data: unknown): Promise<void> {
  if (typeof data !== 'object' || data === null) return;
  const values = data as Record<string, unknown>;
  if (typeof values.password === 'string' && !isHash(values.password)) values.password = await hashPassword(values.password);
}

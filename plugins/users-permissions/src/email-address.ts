/**
 * The email of an account request (register, forgot-password, send-email-
 * confirmation, `/users` writes), checked with the kernel's linear-time test
 * after its length is bounded, so no request string reaches a pattern that
 * could backtrack (the old pattern held the server 18 s on one 100 kB body).
 */
import { isEmailAddress, MAX_EMAIL_LENGTH } from '@tessera/core';
import { ValidationError } from '@tessera/errors';

/** The value, or a 400 naming the field in yup's words, as Strapi answers. */
export function checkEmailAddress(value: string, field = 'email'): string {
  if (value.length > MAX_EMAIL_LENGTH) throw ValidationError.forField([field], `${field} must be at most ${MAX_EMAIL_LENGTH} characters`);
  if (!isEmailAddress(value)) throw ValidationError.forField([field], `${field} must be a valid email`);
  return value;
}

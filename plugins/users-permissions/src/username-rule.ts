/**
 * A username shaped like an email address must be the account's own email.
 *
 * Strapi 4.26.2's register refuses an email that is already someone's
 * username, so whoever registers the username `carol@example.com` first keeps
 * Carol from ever signing up with her own address. Tessera's register does
 * not look at other users' usernames for the email; instead no account can
 * hold a username that is another address than its own email, so a username
 * can never stand for an address its owner does not have (login reads an
 * identifier with `@` as an email first). Usernames without that shape
 * (`carol`, `carol@home`) are unaffected, as is a username equal to the
 * account's own email, in any case.
 */
import { isEmailAddress, MAX_EMAIL_LENGTH } from '@tessera/core';
import { ValidationError } from '@tessera/errors';

export const EMAIL_SHAPED_USERNAME = 'username must not be an email address other than the email of the account';

/** Throws a 400 naming `username` when it is shaped like an email address other than `email`. */
export function checkUsernameIsNoOtherEmail(username: unknown, email: unknown): void {
  if (typeof username !== 'string' || username.length > MAX_EMAIL_LENGTH || !isEmailAddress(username)) return;
  if (typeof email === 'string' && username.toLowerCase() === email.toLowerCase()) return;
  throw ValidationError.forField(['username'], EMAIL_SHAPED_USERNAME);
}

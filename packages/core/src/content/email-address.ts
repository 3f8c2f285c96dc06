/**
 * Email addresses, checked in linear time. The pattern this replaces,
 * `^[^\s@]+@[^\s@]+\.[^\s@]+$`, backtracks quadratically: one 100 kB
 * forgot-password body held the event loop for 18 s. The meaning is the
 * same — one `@` with something before it, no whitespace, and a dot inside
 * the domain with something on both sides — decided by index look-ups,
 * after the length is bounded (254, RFC 5321's limit on an address).
 * Used by the `email` attribute type and by users-permissions.
 */
export const MAX_EMAIL_LENGTH = 254;
const WHITESPACE = /\s/;

export function isEmailAddress(text: string): boolean {
  if (text.length > MAX_EMAIL_LENGTH) return false;
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@')) return false;
  // One character class, no quantifier: a single pass.
  if (WHITESPACE.test(text)) return false;
  const domain = text.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}

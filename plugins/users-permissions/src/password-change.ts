/**
 * A change of password revokes what the old one gave: the reset code is
 * cleared and every JWT issued before the change is refused (401).
 *
 * The time of the last change is kept in `up_users.password_changed_at`
 * (the private `passwordChangedAt` attribute, a column the additive schema
 * sync adds to a Strapi-made table; NULL = never changed). It is stamped by
 * the user type's `beforeUpdate` lifecycle whenever a write sets `password`,
 * whatever path the write takes (change-password, reset-password, `PUT
 * /users/:id`, `getService('user').edit`, the entity service, `db.query`).
 *
 * Comparing a time with a JWT's `iat` is not enough: `iat` has second
 * resolution, so a token issued later in the same second as the change could
 * not be told from one issued just before it. Tokens Tessera issues for a
 * user whose password has changed therefore carry that change's time, in
 * milliseconds, as a `passwordChangedAt` claim; the token is valid while the
 * claim equals the stored time. A token without the claim (issued before any
 * change, by Strapi, or by app code through `jwt.issue({ id })`) is valid
 * only if its `iat` second starts at or after the change — a token issued in
 * the change's own second without the claim is refused, the safe side.
 */

/** Called on every user update: a new password stamps the time and clears the reset code. */
export function stampPasswordChange(data: unknown): void {
  if (typeof data !== 'object' || data === null) return;
  const values = data as Record<string, unknown>;
  if (typeof values.password !== 'string') return;
  values.passwordChangedAt = new Date();
  values.resetPasswordToken = null;
}

/** The stored time (an ISO string, a Date or epoch ms, as the dialect returns it) in ms, or null when never changed. */
export function passwordChangedAtOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const time = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(String(value));
  return Number.isFinite(time) ? time : null;
}

export interface TokenTimes {
  /** `iat`, in seconds. */
  issuedAt: number;
  /** The `passwordChangedAt` claim, when the token has one. */
  passwordChangedAt?: number;
}

/** Whether a token still stands after the user's last change of password (`changedAt` in ms, null = never). */
export function survivesPasswordChange(token: TokenTimes, changedAt: number | null): boolean {
  if (changedAt === null) return true;
  if (token.passwordChangedAt !== undefined) return token.passwordChangedAt === changedAt;
  return token.issuedAt * 1000 >= changedAt;
}

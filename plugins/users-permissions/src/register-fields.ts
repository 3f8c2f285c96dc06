/**
 * Which keys of a register body become the new user's values: Strapi 4.26.2's
 * rule (`controllers/auth.js` register), so a signup form that sends its own
 * user fields — FoodAdvisor's `job` — works unchanged.
 *
 * - `register.allowedFields` set (an array, even empty): username, email,
 *   password and exactly those fields.
 * - not set: username, email, password and every user attribute that is
 *   neither private, nor `writable: false`, nor one of the fields a client
 *   must never set on itself (role, confirmed, blocked, provider, the codes,
 *   id, timestamps and the admin stamps).
 *
 * Other keys are dropped, as Strapi drops them (its `_.pick`): a body with
 * `role` or `confirmed` registers a plain user, it is not a 400. Unlike Strapi,
 * `allowedFields` may not name the privileged fields (config.ts refuses it at boot).
 */
const ALWAYS_ALLOWED = ['username', 'email', 'password'];

/** Strapi's list, plus Tessera's own server-managed column. */
const NEVER_BY_DEFAULT = new Set([
  'confirmed',
  'blocked',
  'confirmationToken',
  'resetPasswordToken',
  'provider',
  'id',
  'role',
  'createdAt',
  'updatedAt',
  'createdBy',
  'updatedBy',
  'publishedAt',
  'strapi_reviewWorkflows_stage',
  'passwordChangedAt',
]);

export interface UserAttributeLike {
  private?: boolean;
  writable?: boolean;
}

export function registerFields(attributes: Record<string, UserAttributeLike>, allowedFields: string[] | undefined): string[] {
  if (Array.isArray(allowedFields)) return [...new Set([...ALWAYS_ALLOWED, ...allowedFields])];
  return [...new Set([...ALWAYS_ALLOWED, ...defaultAdditions(attributes)])];
}

/** The attributes register accepts when `allowedFields` is not set (Strapi warns about them at boot; so do we). */
export function defaultAdditions(attributes: Record<string, UserAttributeLike>): string[] {
  return Object.entries(attributes)
    .filter(([name, attribute]) => !ALWAYS_ALLOWED.includes(name) && !NEVER_BY_DEFAULT.has(name) && attribute.private !== true && attribute.writable !== false)
    .map(([name]) => name);
}

/**
 * `strapi::session`: accepted for Strapi compatibility and does nothing.
 * Tessera keeps no server-side sessions (API tokens are stateless); Strapi
 * uses them for its admin panel, which Tessera does not have.
 */
import type { Builtin } from './builtin';

export const session: Builtin = {
  keys: ['key', 'maxAge', 'autoCommit', 'overwrite', 'httpOnly', 'signed', 'rolling', 'renew', 'secure', 'sameSite'],
  create: () => undefined,
};

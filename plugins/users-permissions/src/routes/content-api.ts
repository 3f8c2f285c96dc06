/**
 * Strapi v4's users-permissions content-API routes. `prefix: ''` mounts the
 * auth and users routes at `/api/auth/...` and `/api/users/...`; roles and
 * permissions stay under `/api/users-permissions/...`. The account routes
 * anyone must reach (login, register, password reset, confirmation) skip
 * authorization and carry the rate limit instead; the others are checked
 * against their action (`plugin::users-permissions.user.me`, ...).
 */
import type { RouteConfig } from '@tessera/core';

const limited = { middlewares: ['rateLimit'] };
const open = { ...limited, auth: false as const, prefix: '' };

export const routes: RouteConfig[] = [
  { method: 'POST', path: '/auth/local', handler: 'auth.callback', config: open },
  { method: 'POST', path: '/auth/local/register', handler: 'auth.register', config: open },
  { method: 'POST', path: '/auth/forgot-password', handler: 'auth.forgotPassword', config: open },
  { method: 'POST', path: '/auth/reset-password', handler: 'auth.resetPassword', config: open },
  { method: 'GET', path: '/auth/email-confirmation', handler: 'auth.emailConfirmation', config: open },
  { method: 'POST', path: '/auth/send-email-confirmation', handler: 'auth.sendEmailConfirmation', config: open },
  { method: 'GET', path: '/connect/:provider', handler: 'auth.connect', config: open },
  // The provider's redirect back; Strapi routes both with one pattern (`/connect/(.*)`) to the same action.
  { method: 'GET', path: '/connect/:provider/callback', handler: 'auth.connect', config: open },
  { method: 'GET', path: '/auth/:provider/callback', handler: 'auth.providerCallback', config: open },
  { method: 'POST', path: '/auth/change-password', handler: 'auth.changePassword', config: { ...limited, prefix: '' } },

  { method: 'GET', path: '/users/count', handler: 'user.count', config: { prefix: '' } },
  { method: 'GET', path: '/users', handler: 'user.find', config: { prefix: '' } },
  { method: 'GET', path: '/users/me', handler: 'user.me', config: { prefix: '' } },
  { method: 'GET', path: '/users/:id', handler: 'user.findOne', config: { prefix: '' } },
  { method: 'POST', path: '/users', handler: 'user.create', config: { prefix: '' } },
  { method: 'PUT', path: '/users/:id', handler: 'user.update', config: { prefix: '' } },
  { method: 'DELETE', path: '/users/:id', handler: 'user.destroy', config: { prefix: '' } },

  { method: 'GET', path: '/roles/:id', handler: 'role.findOne' },
  { method: 'GET', path: '/roles', handler: 'role.find' },
  { method: 'POST', path: '/roles', handler: 'role.createRole' },
  { method: 'PUT', path: '/roles/:role', handler: 'role.updateRole' },
  { method: 'DELETE', path: '/roles/:role', handler: 'role.deleteRole' },
  { method: 'GET', path: '/permissions', handler: 'permissions.getPermissions' },
];

/**
 * The sign-in routes' handlers, with Strapi 4.26.2's answers
 * (`authentication` and `authenticated-user` controllers): register the first
 * admin, log in, renew a token, log out, read and edit one's own profile, and
 * one's own permissions.
 */
import type Koa from 'koa';
import { ApplicationError, ValidationError } from '@tessera/errors';
import { requestBody, type App } from '@tessera/core';
import { decodeAdminToken, issueAdminToken, signedInAdmin } from './admin-auth';
import { adminUsers, sanitizeUser, spendVerification, verifyPassword } from './users';
import { isPlainObject, normalizeUpdate, PROFILE_UPDATE_BODY, REGISTER_ADMIN_BODY, RENEW_TOKEN_BODY, validateBody } from './validation';

/** `ctx.badRequest(message, details)`: Strapi's BadRequestError, whose message is the first argument. */
function badRequest(ctx: Koa.Context, message: string, details: Record<string, unknown>): void {
  ctx.status = 400;
  ctx.body = { data: null, error: { status: 400, name: 'BadRequestError', message, details } };
}

export function signInHandlers(app: App) {
  const users = adminUsers(app);

  return {
    async registerAdmin(ctx: Koa.Context) {
      const input = validateBody(requestBody(ctx), REGISTER_ADMIN_BODY);
      // Strapi checks before it hashes; the transaction checks again, under a lock (users.ts).
      if (await users.exists()) throw new ApplicationError('You cannot register a new super admin');
      const user = await users.registerFirstAdmin({
        email: input.email!,
        firstname: input.firstname!,
        lastname: input.lastname,
        password: input.password!,
      });
      ctx.body = { data: { token: issueAdminToken(app, user.id), user: sanitizeUser(user) } };
    },

    /**
     * passport-local's answers: no email or password → "Missing credentials"; an unknown email or a wrong password →
     * "Invalid credentials" (one bcrypt either way, so timing does not tell which); an inactive user → "User not active".
     * A password that is not a string is refused as missing (Strapi answers 501 when bcrypt throws on it).
     */
    async login(ctx: Koa.Context) {
      const body = requestBody(ctx);
      const email = isPlainObject(body) ? body.email : undefined;
      const password = isPlainObject(body) ? body.password : undefined;
      if (typeof email !== 'string' || email === '' || typeof password !== 'string' || password === '') throw new ApplicationError('Missing credentials');
      // Strapi's local strategy looks the email up lower-cased (stored emails are: registration refuses capitals).
      const user = await users.findByEmail(email.toLowerCase());
      if (!user) {
        await spendVerification(password);
        throw new ApplicationError('Invalid credentials');
      }
      if (!(await verifyPassword(password, user.password))) throw new ApplicationError('Invalid credentials');
      if (user.isActive !== true) throw new ApplicationError('User not active');
      ctx.body = { data: { token: issueAdminToken(app, user.id), user: sanitizeUser(user) } };
    },

    /** Strapi renews any token its secret signed, without looking the user up (the next request does). */
    async renewToken(ctx: Koa.Context) {
      const { token } = validateBody(requestBody(ctx), RENEW_TOKEN_BODY);
      const id = decodeAdminToken(app, token!);
      if (id === null) throw new ValidationError('Invalid token');
      ctx.body = { data: { token: issueAdminToken(app, id) } };
    },

    /** Tokens are stateless, as on Strapi: logging out is the panel forgetting its token. */
    async logout(ctx: Koa.Context) {
      signedInAdmin(ctx);
      ctx.body = { data: {} };
    },

    async getMe(ctx: Koa.Context) {
      ctx.body = { data: sanitizeUser(signedInAdmin(ctx)) };
    },

    /** Strapi lowercases the email and trims the first name before validating; a new password needs the current one. */
    async updateMe(ctx: Koa.Context) {
      const me = signedInAdmin(ctx);
      const { currentPassword, ...changes } = validateBody(normalizeUpdate(requestBody(ctx)), PROFILE_UPDATE_BODY);
      if (currentPassword && changes.password && !(await verifyPassword(currentPassword, me.password))) {
        return badRequest(ctx, 'ValidationError', { currentPassword: ['Invalid credentials'] });
      }
      if (typeof changes.email === 'string' && (await users.emailTaken(changes.email, me.id))) {
        return badRequest(ctx, 'ValidationError', { email: ['Email already taken'] });
      }
      ctx.body = { data: sanitizeUser(await users.update(me.id, changes)) };
    },

    async getOwnPermissions(ctx: Koa.Context) {
      ctx.body = { data: await users.permissionsOf(signedInAdmin(ctx)) };
    },
  };
}

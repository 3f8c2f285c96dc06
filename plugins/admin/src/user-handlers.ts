/**
 * The `user` controller of `@strapi/admin` 4.26.2, the Users settings page's
 * routes: list, invite (create), read, update, delete, batch delete, with
 * Strapi's answers (201 with the registration token on an invitation, 404s
 * "User does not exist" / "User not found", the yup 400s of validation.ts).
 */
import type Koa from 'koa';
import { NotFoundError } from '@tessera/errors';
import { requestBody, type App } from '@tessera/core';
import { adminAbility } from './contract';
import { assertMayGrant } from './role-grants';
import { userId, userManagement, type GrantCheck } from './user-management';
import { adminUsers, sanitizeUser } from './users';
import { findUsersPage } from './users-list';
import { normalizeUpdate, USER_CREATION_BODY, USER_UPDATE_BODY, USERS_DELETE_BODY, validateShape } from './validation';

export function userHandlers(app: App) {
  const manage = userManagement(app);
  const users = adminUsers(app);
  const grantsOf = (ctx: Koa.Context): GrantCheck => {
    const ability = adminAbility(ctx);
    return (roleIds) => assertMayGrant(app, ability, roleIds);
  };

  return {
    async find(ctx: Koa.Context) {
      ctx.body = { data: await findUsersPage(app, ctx.query as Record<string, unknown>) };
    },

    /**
     * Strapi spreads the body into an object and lowercases its email before
     * validating (so an array body's indexes are unknown keys); an email that
     * is no text is left for the schema to refuse (Strapi answers 500).
     */
    async create(ctx: Koa.Context) {
      const body: Record<string, unknown> = Object.assign({}, requestBody(ctx));
      body.email = body.email === undefined ? '' : typeof body.email === 'string' ? body.email.toLowerCase() : body.email;
      const input = validateShape(body, USER_CREATION_BODY);
      const created = await manage.invite(input, grantsOf(ctx));
      ctx.status = 201;
      ctx.body = { data: { ...sanitizeUser(created), registrationToken: created.registrationToken } };
    },

    async findOne(ctx: Koa.Context) {
      const id = userId(ctx.params.id);
      const user = id === null ? null : await users.findWithRoles(id);
      if (!user) throw new NotFoundError('User does not exist');
      ctx.body = { data: sanitizeUser(user) };
    },

    async update(ctx: Koa.Context) {
      const changes = validateShape(normalizeUpdate(requestBody(ctx)), USER_UPDATE_BODY);
      const id = userId(ctx.params.id);
      // A path naming no user is id 0 (no row has it): the email is still checked first, then the answer is Strapi's 404.
      const updated = await manage.update(id ?? 0, changes, undefined, grantsOf(ctx));
      if (!updated) throw new NotFoundError('User does not exist');
      ctx.body = { data: sanitizeUser(updated) };
    },

    async deleteOne(ctx: Koa.Context) {
      const id = userId(ctx.params.id);
      const deleted = id === null ? null : await manage.deleteOne(id, grantsOf(ctx));
      if (!deleted) throw new NotFoundError('User not found');
      ctx.body = { data: sanitizeUser(deleted) };
    },

    async deleteMany(ctx: Koa.Context) {
      const { ids } = validateShape(requestBody(ctx), USERS_DELETE_BODY);
      const deleted = await manage.deleteMany(ids, grantsOf(ctx));
      ctx.body = { data: deleted.map(sanitizeUser) };
    },
  };
}

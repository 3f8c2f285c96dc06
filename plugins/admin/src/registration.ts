/**
 * An invited user's first visit, as `@strapi/admin` 4.26.2 answers it: the
 * panel's invitation link (`/admin/auth/register?registrationToken=…`) asks
 * `GET /admin/registration-info` for the invitation's email and names, then
 * `POST /admin/register` sets the user's names and password, makes the user
 * active, forgets the token (a link works once) and answers a session, as a
 * login does.
 */
import type Koa from 'koa';
import { ValidationError } from '@tessera/errors';
import { requestBody, type App } from '@tessera/core';
import { issueAdminToken } from './admin-auth';
import { USER_UID } from './content-types';
import { userManagement } from './user-management';
import { sanitizeUser } from './users';
import { REGISTRATION_BODY, REGISTRATION_INFO_QUERY, validateShape } from './validation';

export function registrationHandlers(app: App) {
  const manage = userManagement(app);
  const byToken = (registrationToken: string) => app.db.query(USER_UID).findOne({ where: { registrationToken }, select: ['id', 'email', 'firstname', 'lastname'] });

  return {
    async registrationInfo(ctx: Koa.Context) {
      const { registrationToken } = validateShape(ctx.query, REGISTRATION_INFO_QUERY);
      const user = await byToken(registrationToken);
      if (!user) throw new ValidationError('Invalid registrationToken');
      ctx.body = { data: { email: user.email, firstname: user.firstname, lastname: user.lastname } };
    },

    async register(ctx: Koa.Context) {
      const { registrationToken, userInfo } = validateShape(requestBody(ctx), REGISTRATION_BODY);
      const user = await byToken(registrationToken);
      // Two registrations with one token: the update below matches the token again, so only one can use it.
      const registered = user
        ? await manage.update(user.id, { password: userInfo.password, firstname: userInfo.firstname, lastname: userInfo.lastname, registrationToken: null, isActive: true }, { registrationToken })
        : null;
      if (!registered) throw new ValidationError('Invalid registration info');
      ctx.body = { data: { token: issueAdminToken(app, registered.id), user: sanitizeUser(registered) } };
    },
  };
}

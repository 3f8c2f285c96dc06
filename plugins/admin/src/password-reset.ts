/**
 * Forgotten admin passwords, as `@strapi/admin` 4.26.2 handles them:
 * `POST /admin/forgot-password` answers 204 whatever the email (so it tells
 * nobody which accounts exist), and for an active admin stores a reset token
 * and mails the panel's link, `<admin url>/auth/reset-password?code=<token>`,
 * through the email plugin's service with Strapi's template
 * (`admin.forgotPassword.emailTemplate`, `from`, `replyTo`); `POST
 * /admin/reset-password` sets the new password, forgets the token (a link
 * works once) and answers a session. As on Strapi, the work after the 204
 * runs unawaited and a failure is only logged: the answer never waits for
 * the mail, for a known account or not.
 */
import type Koa from 'koa';
import { ApplicationError } from '@tessera/errors';
import { requestBody, type App } from '@tessera/core';
import type {} from '@tessera/plugin-email';
import { issueAdminToken } from './admin-auth';
import { absoluteAdminUrl } from './admin-url';
import { USER_UID } from './content-types';
import { createToken, userManagement } from './user-management';
import { sanitizeUser } from './users';
import { FORGOT_PASSWORD_BODY, RESET_PASSWORD_BODY, validateShape } from './validation';

/** Strapi's forgot-password mail (`admin.forgotPassword.emailTemplate` replaces it). */
export const FORGOT_PASSWORD_TEMPLATE = {
  subject: 'Reset password',
  html: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>

<p><%= url %></p>

<p>Thanks.</p>`,
  text: `We heard that you lost your password. Sorry about that!

But don’t worry! You can use the following link to reset your password:

<%= url %>

Thanks.`,
};

interface ForgotPasswordConfig {
  from?: string;
  replyTo?: string;
  emailTemplate?: Partial<typeof FORGOT_PASSWORD_TEMPLATE>;
}

export function passwordResetHandlers(app: App) {
  const manage = userManagement(app);

  async function sendResetMail(email: string): Promise<void> {
    const user = await app.db.query(USER_UID).findOne({ where: { email, isActive: true }, select: ['id', 'email', 'firstname', 'lastname', 'username'] });
    if (!user) return;
    const resetPasswordToken = createToken();
    await manage.update(user.id, { resetPasswordToken });
    const mail = app.plugin('email')?.service('email');
    if (!mail) {
      app.log.warn(`admin: no email plugin, so the password reset mail to ${email} was not sent (install @strapi/plugin-email and configure a provider)`);
      return;
    }
    const config = app.config.get<ForgotPasswordConfig>('admin.forgotPassword') ?? {};
    const url = `${absoluteAdminUrl(app)}/auth/reset-password?code=${resetPasswordToken}`;
    const { id: _id, ...names } = user;
    // Unset `from`/`replyTo` are left out, so the provider's defaults (`settings.defaultFrom`) apply.
    const message = { to: String(user.email), ...(config.from ? { from: config.from } : {}), ...(config.replyTo ? { replyTo: config.replyTo } : {}) };
    await mail.sendTemplatedEmail(message, config.emailTemplate ?? FORGOT_PASSWORD_TEMPLATE, { url, user: names });
  }

  return {
    async forgotPassword(ctx: Koa.Context) {
      const { email } = validateShape(requestBody(ctx), FORGOT_PASSWORD_BODY);
      sendResetMail(email).catch((error: unknown) => app.log.error(`admin: the password reset mail to ${email} failed: ${(error as Error).message}`));
      ctx.status = 204;
    },

    async resetPassword(ctx: Koa.Context) {
      const { resetPasswordToken, password } = validateShape(requestBody(ctx), RESET_PASSWORD_BODY);
      const user = await app.db.query(USER_UID).findOne({ where: { resetPasswordToken, isActive: true }, select: ['id'] });
      // Two resets with one token: the update matches the token again, so only one can use it.
      const updated = user ? await manage.update(user.id, { password, resetPasswordToken: null }, { resetPasswordToken }) : null;
      if (!updated) throw new ApplicationError('An application error occured');
      ctx.body = { data: { token: issueAdminToken(app, updated.id), user: sanitizeUser(updated) } };
    },
  };
}

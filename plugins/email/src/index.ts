/**
 * Strapi v4's email plugin (`@strapi/plugin-email`, always on in Strapi):
 * `strapi.plugin('email').service('email')` with `send`, `sendTemplatedEmail`
 * and `getProviderSettings`, its provider on `strapi.plugin('email').provider`
 * (replaceable, as in Strapi: `send` reads it on each call), and the
 * content-API route `POST /api/email` (action `plugin::email.email.send`), and
 * its admin routes (admin.ts: the panel's Settings → Email page).
 *
 * Config is Strapi's (`config/plugins` `email: { config: { provider,
 * providerOptions, settings } }`); providers are Strapi's packages
 * (`@strapi/provider-email-nodemailer`, …) resolved from the app (provider.ts).
 * The provider is made in `register`, so every plugin's `bootstrap` can send.
 */
import type Koa from 'koa';
import { ApplicationError, ValidationError } from '@tessera/errors';
import { requestBody, type App, type Plugin } from '@tessera/core';
import type { EmailConfig, EmailMessage, EmailProvider, EmailService } from './contract';
import { createProvider } from './provider';
import { renderTemplate } from './templated';
import { adminRoutes, getSettings, sendTest } from './admin';

export type { EmailConfig, EmailMessage, EmailProvider, EmailService, EmailServices, EmailTemplate } from './contract';

/** Strapi's defaults (its `config.default`); a function so each app gets its own copy. */
const defaultConfig = (): Record<string, unknown> => ({
  provider: 'sendmail',
  providerOptions: {},
  settings: { defaultFrom: 'Strapi <no-reply@strapi.io>' },
});

function providerOf(app: App): EmailProvider {
  return app.plugin('email')!.provider as EmailProvider;
}

function emailService(app: App): EmailService {
  return {
    getProviderSettings: () => app.config.get<EmailConfig>('plugin.email'),
    send: (message) => providerOf(app).send(message),
    sendTemplatedEmail: (message, template, data) => providerOf(app).send({ ...message, ...renderTemplate(template, data) }),
  };
}

/** Strapi's controller: a provider's 400 is the caller's (ApplicationError); any other failure is the server's. */
async function sendAction(app: App, ctx: Koa.Context): Promise<void> {
  const message = requestBody(ctx);
  if (message === null || typeof message !== 'object' || Array.isArray(message)) throw new ValidationError('The body must be the message: an object with to, subject, text or html');
  if (!('to' in message) || !message.to) throw new ValidationError('No recipient: give `to`');
  try {
    await app.plugin('email')!.service('email').send(message as EmailMessage);
  } catch (error) {
    if (error instanceof Error && (error as { statusCode?: unknown }).statusCode === 400) throw new ApplicationError(error.message);
    throw new Error(`Couldn't send email: ${(error as Error).message}.`);
  }
  ctx.status = 200;
  ctx.body = {};
}

export const emailPlugin: Plugin = {
  name: 'email',
  config: { default: defaultConfig },
  services: { email: ({ app }) => emailService(app) },
  controllers: {
    email: ({ app }) => ({
      send: (ctx: Koa.Context) => sendAction(app, ctx),
      test: (ctx: Koa.Context) => sendTest(app, ctx),
      getSettings: () => getSettings(app),
    }),
  },
  routes: {
    // The admin routes need the admin plugin (its strategy and policies): an API-only app has no admin side to serve.
    admin: { type: 'admin', routes: ({ app }) => (app.plugin('admin') ? adminRoutes : []) },
    'content-api': { type: 'content-api', routes: [{ method: 'POST', path: '/', handler: 'email.send' }] },
  },
  register({ app }) {
    const chosen = app.config.get<unknown>('plugins.email.config.provider') !== undefined;
    app.plugin('email')!.provider = createProvider(app, app.config.get<EmailConfig>('plugin.email'), chosen);
  },
};

export default emailPlugin;

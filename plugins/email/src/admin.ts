/**
 * The email plugin's admin side, as Strapi 4.26.2's `@strapi/plugin-email` declares it: `GET /email/settings` (what
 * the panel's Settings → Email page shows: the provider's name and the sender settings, never the provider's options,
 * which hold credentials), `POST /email/test` (a test mail through the configured provider) and `POST /email` (send,
 * for a signed-in admin). The admin action `plugin::email.settings.read` (registered by the admin plugin's catalogue)
 * guards the first two.
 */
import type Koa from 'koa';
import { requestBody, type App, type RouteConfig } from '@tessera/core';
import { ApplicationError } from '@tessera/errors';
import type { EmailConfig } from './contract';

const canRead = { name: 'admin::hasPermissions', config: { actions: ['plugin::email.settings.read'] } };

export const adminRoutes: RouteConfig[] = [
  { method: 'POST', path: '/', handler: 'email.send', config: { policies: ['admin::isAuthenticatedAdmin'] } },
  { method: 'POST', path: '/test', handler: 'email.test', config: { policies: ['admin::isAuthenticatedAdmin', canRead] } },
  { method: 'GET', path: '/settings', handler: 'email.getSettings', config: { policies: ['admin::isAuthenticatedAdmin', canRead] } },
];

/** The longest recipient list a test mail takes (the panel sends one address). */
const MAX_TO = 1_000;

/** Strapi's `getSettings`: `provider` and three of `settings`, picked (absent keys stay absent). */
export function getSettings(app: App): { config: Record<string, unknown> } {
  const config = app.config.get<EmailConfig>('plugin.email');
  const settings: Record<string, unknown> = {};
  for (const key of ['defaultFrom', 'defaultReplyTo', 'testAddress']) if (config.settings?.[key] !== undefined) settings[key] = config.settings[key];
  const picked: Record<string, unknown> = {};
  // A provider object (`{ init }`) has no name to show; Strapi shows what the config holds, a name.
  if (config.provider !== undefined) picked.provider = typeof config.provider === 'string' ? config.provider : 'custom';
  if (Object.keys(settings).length > 0) picked.settings = settings;
  return { config: picked };
}

/** Strapi's `test`: a mail to `to` naming the provider; a provider's 400 is the caller's, anything else the server's. */
export async function sendTest(app: App, ctx: Koa.Context): Promise<void> {
  const body = requestBody(ctx);
  const to = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { to?: unknown }).to : undefined;
  if (!to) throw new ApplicationError('No recipient(s) are given');
  if (typeof to !== 'string' || to.length > MAX_TO) throw new ApplicationError('The recipient must be an email address');
  const provider = app.config.get<EmailConfig>('plugin.email').provider;
  const name = typeof provider === 'string' ? provider : 'custom';
  const message = {
    to,
    subject: `Strapi test mail to: ${to}`,
    text: `Great! You have correctly configured the Strapi email plugin with the ${name} provider. \r\nFor documentation on how to use the email plugin checkout: https://docs.strapi.io/developer-docs/latest/plugins/email.html`,
  };
  try {
    await app.plugin('email')!.service('email').send(message);
  } catch (error) {
    if (error instanceof Error && (error as { statusCode?: unknown }).statusCode === 400) throw new ApplicationError(error.message);
    throw new Error(`Couldn't send test email: ${(error as Error).message}.`);
  }
  ctx.status = 200;
  ctx.body = {};
}

/**
 * The account mails' templates (Settings → Users & Permissions → Email templates), kept where Strapi v4 keeps them:
 * the core-store row `plugin_users-permissions_email`, in Strapi's shape. The forgot-password and confirmation mails
 * are made from the row each time, so an edit in the panel shapes the next mail. The row is written at the first boot
 * with Strapi 4.26.2's texts and, as sender, the `email.from` of this plugin's config (Tessera's setting until now);
 * a Strapi-made database's row is used as it is.
 *
 * A template is filled by interpolation only (`<%= URL %>`, services/users-permissions.ts' fillTemplate): nothing in
 * it runs. The panel's edits are checked as Strapi checks them (isValidEmailTemplate): no `<% … %>` code, no `${…}`,
 * and only the variables Strapi offers.
 */
import type { App } from '@tessera/core';
import { ValidationError } from '@tessera/errors';
import { fillTemplate } from '../services/users-permissions';
import { pluginStore } from './advanced';

export type TemplateName = 'reset_password' | 'email_confirmation';

export interface EmailTemplateOptions {
  from: { name?: string; email?: string };
  response_email?: string;
  object: string;
  message: string;
}

export interface StoredEmailTemplate {
  display: string;
  icon: string;
  options: EmailTemplateOptions;
}

/** A mail as a template makes it (Strapi sends the message as both text and html). */
export interface TemplatedMail {
  from?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

const RESET_MESSAGE = `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`;

const CONFIRMATION_MESSAGE = `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`;

/** `Name <address>` or a bare address, as the template's sender fields. */
export function senderOf(from: string): { name: string; email: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from);
  return match ? { name: match[1].replace(/^"|"$/g, ''), email: match[2] } : { name: '', email: from.trim() };
}

/** Strapi 4.26.2's default templates (bootstrap's initEmails), sent from `from` (a bare address keeps Strapi's name: the panel's form requires one). */
export function defaultTemplates(from: string): Record<TemplateName, StoredEmailTemplate> {
  const address = senderOf(from);
  const sender = { name: address.name || 'Administration Panel', email: address.email };
  return {
    reset_password: {
      display: 'Email.template.reset_password',
      icon: 'sync',
      options: { from: { ...sender }, response_email: '', object: 'Reset password', message: RESET_MESSAGE },
    },
    email_confirmation: {
      display: 'Email.template.email_confirmation',
      icon: 'check-square',
      options: { from: { ...sender }, response_email: '', object: 'Account confirmation', message: CONFIRMATION_MESSAGE },
    },
  };
}

export async function writeEmailTemplates(app: App, from: string): Promise<void> {
  const store = pluginStore(app);
  if (await store.get({ key: 'email' })) return;
  await store.set({ key: 'email', value: defaultTemplates(from) });
}

/** The variables Strapi's templates may name (its email-template validation). */
const AUTHORIZED_KEYS = new Set(['URL', 'ADMIN_URL', 'SERVER_URL', 'CODE', 'USER', 'USER.email', 'USER.username', 'TOKEN']);
const EVALUATE = /<%[^=][\s\S]*?%>/;
const TEMPLATE_LITERAL = /\$\{[^{}]*\}/;
const INTERPOLATION = /<%=([\s\S]+?)%>/g;

/** Strapi's rule: no code blocks, no `${…}`, and every `<%= … %>` names an offered variable. */
export function isValidEmailTemplate(template: string): boolean {
  if (EVALUATE.test(template) || TEMPLATE_LITERAL.test(template)) return false;
  for (const match of template.matchAll(INTERPOLATION)) if (!AUTHORIZED_KEYS.has(match[1].trim())) return false;
  return true;
}

/** Budgets: the panel edits two short templates; anything far larger is no template. */
const MAX_TEMPLATES = 10;
const MAX_TEXT = 20_000;

/** `PUT /users-permissions/email-templates`' body: `{ 'email-templates': { <name>: { options: { message, … } } } }`. */
export function checkTemplates(body: unknown): Record<string, StoredEmailTemplate> {
  const templates = isObject(body) ? body['email-templates'] : undefined;
  if (!isObject(templates) || Object.keys(templates).length === 0 || Object.keys(templates).length > MAX_TEMPLATES) {
    throw new ValidationError('email-templates must be an object of templates');
  }
  for (const template of Object.values(templates)) {
    const options = isObject(template) ? template.options : undefined;
    if (!isObject(options) || typeof options.message !== 'string' || (options.object !== undefined && typeof options.object !== 'string')) {
      throw new ValidationError('Invalid template');
    }
    if (JSON.stringify(template).length > MAX_TEXT || !isValidEmailTemplate(options.message)) throw new ValidationError('Invalid template');
  }
  return templates as Record<string, StoredEmailTemplate>;
}

/** The stored template of `name` (Strapi's defaults when the row lacks it) filled with `data`, as Strapi makes the mail. */
export async function templatedMail(app: App, name: TemplateName, fallbackFrom: string, data: Record<string, unknown>, subjectData: Record<string, unknown>): Promise<TemplatedMail> {
  const stored = (await pluginStore(app).get({ key: 'email' })) as Record<string, unknown> | null;
  const entry = isObject(stored) && isObject(stored[name]) ? (stored[name] as Record<string, unknown>) : undefined;
  const options = (isObject(entry?.options) ? entry!.options : defaultTemplates(fallbackFrom)[name].options) as Partial<EmailTemplateOptions>;
  const message = fillTemplate(String(options.message ?? ''), data);
  const from = isObject(options.from) ? (options.from as { name?: unknown; email?: unknown }) : {};
  return {
    // Strapi's rule: a sender when the template names one, else the provider's default.
    from: from.email || from.name ? `${String(from.name ?? '')} <${String(from.email ?? '')}>` : undefined,
    replyTo: typeof options.response_email === 'string' && options.response_email !== '' ? options.response_email : undefined,
    subject: fillTemplate(String(options.object ?? ''), subjectData),
    text: message,
    html: message,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What the email plugin offers other plugins and apps: Strapi v4's email
 * service, in the kernel's typed service map
 * (`app.plugin('email')!.service('email').send(…)`).
 */

/** A message as Strapi's providers take it (nodemailer's fields; providers read what they know). */
export interface EmailMessage {
  to?: string | string[];
  from?: string;
  replyTo?: string;
  cc?: string | string[];
  bcc?: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  [field: string]: unknown;
}

/** What a provider's `init(providerOptions, settings)` returns. */
export interface EmailProvider {
  send(message: EmailMessage): Promise<unknown>;
}

/** `config/plugins` `email.config`, Strapi v4's keys. */
export interface EmailConfig {
  /** `nodemailer` → `@strapi/provider-email-nodemailer`, else a package name; an object with `init` is used as it is. */
  provider: string | { init(options: unknown, settings: unknown): EmailProvider };
  providerOptions: Record<string, unknown>;
  settings: { defaultFrom?: string; defaultReplyTo?: string; testAddress?: string; [key: string]: unknown };
}

/** The parts of a templated message (Strapi's `sendTemplatedEmail`): each is required, `<%= key %>` interpolated. */
export interface EmailTemplate {
  subject: string;
  text: string;
  html: string;
}

export interface EmailService {
  getProviderSettings(): EmailConfig;
  send(message: EmailMessage): Promise<unknown>;
  sendTemplatedEmail(message: EmailMessage, template: Partial<EmailTemplate>, data: Record<string, unknown>): Promise<unknown>;
}

export interface EmailServices {
  email: EmailService;
}

declare module '@tessera/core' {
  interface PluginServices {
    email: EmailServices;
  }
}

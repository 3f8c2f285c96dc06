/**
 * Outgoing email behind one small interface. As Strapi's users-permissions
 * sends every mail through the email plugin, so does this one when the app
 * runs that plugin (`config/plugins` `email: { config: { provider, … } }`):
 * forgot-password and confirmation mails go through the app's email provider.
 * Tessera's own `email` key of this plugin's config still works: `smtp`
 * (nodemailer) or an object with `send(message)` wins over the email plugin;
 * `log` (the default) writes the message to the app log when there is no
 * email plugin — enough for development.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '@tessera/core';
import type { EmailService as EmailPluginService } from '@tessera/plugin-email';
import type { EmailConfig, EmailProviderLike } from '../config';

/** What this plugin uses of the email plugin's declared contract. */
export type EmailPluginSender = Pick<EmailPluginService, 'send'>;

export interface MailMessage {
  to: string;
  from?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
}

export interface EmailService {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** `emailPlugin`: the email plugin's service when the app runs that plugin. */
export function createEmailService(config: EmailConfig, log: Logger, emailPlugin: EmailPluginSender | undefined): EmailService {
  const provider = providerFor(config, log, emailPlugin);
  return {
    // The sender and reply-to of the mail's template (settings/email-templates.ts) when it names them, else the config's.
    send: (message) => provider.send({ ...message, from: message.from ?? config.from, replyTo: message.replyTo ?? config.replyTo }),
    close: () => (provider as { close?: () => void }).close?.(),
  };
}

function providerFor(config: EmailConfig, log: Logger, emailPlugin: EmailPluginSender | undefined): EmailProviderLike & { close?: () => void } {
  if (typeof config.provider === 'object') return config.provider;
  if (config.provider === 'smtp') {
    const transport = nodemailer.createTransport(config.providerOptions as Parameters<typeof nodemailer.createTransport>[0]);
    return {
      async send(message) {
        await transport.sendMail({ from: message.from, replyTo: message.replyTo, to: message.to, subject: message.subject, text: message.text, html: message.html });
      },
      close: () => transport.close(),
    };
  }
  if (emailPlugin) {
    return {
      async send(message) {
        await emailPlugin.send(message);
      },
    };
  }
  return {
    async send(message) {
      log.info(`users-permissions email (log provider) to ${message.to}: ${message.subject}\n${message.text}`);
    },
  };
}

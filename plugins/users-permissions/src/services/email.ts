/**
 * Outgoing email behind one small interface. `log` (the default) writes the
 * message to the app log — enough for development; `smtp` sends it through
 * nodemailer; any object with `send(message)` is a provider too.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '@tessera/core';
import type { EmailConfig, EmailProviderLike } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface EmailService {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createEmailService(config: EmailConfig, log: Logger): EmailService {
  const provider = providerFor(config, log);
  return {
    send: (message) => provider.send({ ...message, from: config.from, replyTo: config.replyTo }),
    close: () => (provider as { close?: () => void }).close?.(),
  };
}

function providerFor(config: EmailConfig, log: Logger): EmailProviderLike & { close?: () => void } {
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
  return {
    async send(message) {
      log.info(`users-permissions email (log provider) to ${message.to}: ${message.subject}\n${message.text}`);
    },
  };
}

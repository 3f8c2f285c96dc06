/**
 * Strapi's email providers and the plugins that send through
 * `strapi.plugin('email')`, against a real SMTP server on a loopback port
 * (TestSmtp), each configured as its README says:
 * - @strapi/provider-email-nodemailer + strapi-plugin-passwordless: the magic
 *   link is mailed, and logging in with its token answers a JWT that opens
 *   `/api/users/me` (Tessera's users-permissions).
 * - @strapi/provider-email-sendmail (its `devHost`/`devPort` options send to
 *   the local server instead of the recipient's MX) + strapi-plugin-email-designer:
 *   a stored template is rendered with mustache by app code and mailed.
 * - @strapi/provider-email-nodemailer alone: users-permissions' own mails (the
 *   email confirmation, forgot-password) go through the app's email provider,
 *   as Strapi's users-permissions sends them.
 */
import { expect } from 'chai';
import { TestSmtp } from '@tessera/testing';
import type { CaseService } from '../harness';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

let smtp: TestSmtp | undefined;

async function startSmtp(): Promise<CaseService> {
  smtp = new TestSmtp();
  await smtp.start();
  const server = smtp;
  return { env: { SMTP_PORT: String(server.port) }, stop: () => server.stop() };
}

const mails = (): TestSmtp => smtp!;

export const PASSWORDLESS_NODEMAILER: EcosystemSuite = {
  title: 'strapi-plugin-passwordless@4.0.15 mailing through @strapi/provider-email-nodemailer@4.26.2',
  packages: { 'strapi-plugin-passwordless': '4.0.15', '@strapi/provider-email-nodemailer': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2' },
  service: startSmtp,
  files: {
    ...ARTICLE_APP,
    // The nodemailer README's configuration, pointed at the local server.
    'config/plugins.js': `module.exports = ({ env }) => ({
  email: {
    config: {
      provider: 'nodemailer',
      providerOptions: { host: '127.0.0.1', port: env.int('SMTP_PORT'), secure: false, ignoreTLS: true },
      settings: { defaultFrom: 'cms@example.com', defaultReplyTo: 'help@example.com' },
    },
  },
});
`,
  },
  tests: {
    'mails a login link whose token logs the user in once, with a JWT users-permissions accepts': async (app) => {
      const before = mails().mails.length;
      const sent = await app.post('/api/passwordless/send-link', { email: 'Ada@Example.com' });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect(sent.body).to.deep.equal({ email: 'ada@example.com', username: null, sent: true });
      const mail = await mails().next('ada@example.com', before);
      // Its stored default settings (strapi.store) name the sender and subject; nodemailer wrote the message.
      expect(mail.raw).to.match(/^From: Administration Panel <no-reply@strapi\.io>$/m);
      expect(mail.raw).to.match(/^Subject: Passwordless Login$/m);
      const token = /\?loginToken=([A-Za-z0-9_-]{20})\r?\n/.exec(mail.text)![1];
      const login = await app.get(`/api/passwordless/login?loginToken=${token}`);
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      expect(login.body.user).to.deep.include({ username: 'ada@example.com', email: 'ada@example.com', confirmed: false, blocked: false });
      expect(login.body.user).to.not.have.any.keys('password', 'createdBy', 'updatedBy');
      expect(login.body.context).to.deep.equal({});
      const me = await app.get('/api/users/me', { headers: { authorization: `Bearer ${login.body.jwt}` } });
      expect(me.status).to.equal(200);
      // The user it created has users-permissions' default role (read from Strapi's advanced settings row).
      expect(me.body).to.deep.include({ email: 'ada@example.com', confirmed: true });
      const user = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { email: 'ada@example.com' }, populate: ['role'] });
      expect((user?.role as { type: string }).type).to.equal('authenticated');
      const again = await app.get(`/api/passwordless/login?loginToken=${token}`);
      expect(again.body).to.deep.equal({ data: null, error: { status: 400, name: 'BadRequestError', message: 'token.invalid', details: {} } });
    },
  },
};

/** App code sending a designed template, as the email-designer README shows. */
const CONFIRM_CONTROLLER = `'use strict';
module.exports = {
  async confirm(ctx) {
    const { to, firstname, products } = ctx.request.body;
    await strapi.plugin('email-designer').service('email').sendTemplatedEmail({ to }, { templateReferenceId: 7 }, { USER: { firstname }, order: { products } });
    ctx.body = { sent: true };
  },
};
`;

export const EMAIL_DESIGNER_SENDMAIL: EcosystemSuite = {
  title: 'strapi-plugin-email-designer@2.2.1 mailing through @strapi/provider-email-sendmail@4.26.2',
  packages: { 'strapi-plugin-email-designer': '2.2.1', '@strapi/provider-email-sendmail': '4.26.2' },
  service: startSmtp,
  files: {
    ...ARTICLE_APP,
    'config/plugins.js': `module.exports = ({ env }) => ({
  email: {
    config: {
      provider: 'sendmail',
      providerOptions: { devHost: '127.0.0.1', devPort: env.int('SMTP_PORT') },
      settings: { defaultFrom: 'shop@example.com' },
    },
  },
});
`,
    'src/api/order/routes/order.js': `module.exports = { routes: [{ method: 'POST', path: '/orders/confirm', handler: 'order.confirm', config: { auth: false } }] };`,
    'src/api/order/controllers/order.js': CONFIRM_CONTROLLER,
    // The template as the designer stores it (its admin panel is skipped).
    'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    await strapi.db.query('plugin::email-designer.email-template').create({ data: {
      templateReferenceId: 7, name: 'Order', subject: 'Thanks {{USER.firstname}}',
      bodyHtml: '<h1>Hi {{USER.firstname}}</h1><ul>{{#order.products}}<li>{{name}}: {{price}}</li>{{/order.products}}</ul>', bodyText: '',
    } });
  },
};
`,
  },
  tests: {
    'renders a stored template with mustache and sends it through sendmail': async (app) => {
      const before = mails().mails.length;
      const response = await app.post('/api/orders/confirm', { to: 'grace@example.com', firstname: 'Grace', products: [{ name: 'Lamp', price: 12 }, { name: 'Desk', price: 90 }] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const mail = await mails().next('grace@example.com', before);
      expect(mail.raw).to.match(/^From: shop@example\.com$/m);
      expect(mail.raw).to.match(/^Subject: Thanks Grace$/m);
      expect(mail.text).to.contain('<h1>Hi Grace</h1><ul><li>Lamp: 12</li><li>Desk: 90</li></ul>');
      // The text part, made from the HTML by html-to-text since the template has none.
      expect(mail.text).to.match(/HI GRACE|Hi Grace/).and.match(/\* Lamp: 12\r?\n \* Desk: 90/);
      expect(app.app.plugin('email')!.config('provider')).to.equal('sendmail');
    },
  },
};

/**
 * The confirmation or reset link in a users-permissions mail: the URL holding `?<parameter>=`, in the text or inside
 * the HTML of Strapi's templates (`<p><%= URL %>?confirmation=<%= CODE %></p>`).
 */
function linkIn(mail: { text: string }, parameter: 'confirmation' | 'code'): string {
  const link = mail.text.split(/[\s<>"]/).find((word) => word.startsWith('http') && word.includes(`?${parameter}=`));
  if (!link) throw new Error(`no ${parameter} link in: ${mail.text}`);
  return link;
}

export const USERS_PERMISSIONS_MAIL: EcosystemSuite = {
  title: "users-permissions' confirmation and forgot-password mails through @strapi/provider-email-nodemailer@4.26.2",
  packages: { '@strapi/provider-email-nodemailer': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2' },
  service: startSmtp,
  files: {
    ...ARTICLE_APP,
    // Only the email plugin names a provider: users-permissions has no mail settings of its own here.
    'config/plugins.js': `module.exports = ({ env }) => ({
  email: {
    config: {
      provider: 'nodemailer',
      providerOptions: { host: '127.0.0.1', port: env.int('SMTP_PORT'), secure: false, ignoreTLS: true },
      settings: { defaultFrom: 'cms@example.com' },
    },
  },
  'users-permissions': { config: { advanced: { emailConfirmation: true, resetPasswordUrl: 'https://front.example.com/reset' } } },
});
`,
  },
  tests: {
    'the confirmation mail of a registration and the forgot-password mail reach the SMTP server through the provider': async (app) => {
      const before = mails().mails.length;
      const registered = await app.post('/api/auth/local/register', { username: 'bob', email: 'bob@example.com', password: 'Passw0rd!' });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      expect(registered.body).to.not.have.property('jwt');
      const confirmation = await mails().next('bob@example.com', before);
      expect(confirmation.raw).to.match(/^Subject: Account confirmation$/m);
      const confirm = await fetch(linkIn(confirmation, 'confirmation').replace(/^https?:\/\/[^/]+/, app.url), { redirect: 'manual' });
      expect(confirm.status).to.equal(302);
      const afterConfirm = mails().mails.length;
      const forgot = await app.post('/api/auth/forgot-password', { email: 'bob@example.com' });
      expect(forgot.body).to.deep.equal({ ok: true });
      const reset = await mails().next('bob@example.com', afterConfirm);
      expect(reset.raw).to.match(/^Subject: Reset password$/m);
      expect(linkIn(reset, 'code')).to.match(/^https:\/\/front\.example\.com\/reset\?code=/);
    },
  },
};

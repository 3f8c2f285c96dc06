/**
 * The email plugin's admin side (the panel's Settings → Email page) as Strapi 4.26.2 answers it
 * (strapi-4.26.2-admin-email.json, recorded on the peer): `GET /email/settings` shows the provider's name and the
 * sender settings, never its options; `POST /email/test` sends through the configured provider — here a provider
 * package written into the app, as Strapi's community providers are installed, delivering to a real SMTP server.
 */
import { expect } from 'chai';
import { startApp, TestSmtp, type TestApp } from '@tessera/testing';
import type {} from '@tessera/plugin-email';
import RECORDED from './strapi-4.26.2-admin-email.json';

const recorded = (name: string) => RECORDED.exchanges.find((exchange) => exchange.name === name)!;
const ADMIN = { email: 'ada@example.com', password: 'Passw0rd!x', firstname: 'Ada', lastname: 'Admin' };
const ADMIN_PACKAGE = { name: 'email-admin-app', version: '0.1.0', dependencies: { '@strapi/strapi': '4.26.2', '@strapi/admin': '4.26.2' } };

/** A provider package as Strapi's are written (`init(providerOptions, settings)` → `{ send }`), over nodemailer. */
const SMTP_PROVIDER = `'use strict';
const nodemailer = require(${JSON.stringify(require.resolve('nodemailer'))});
module.exports = {
  init(providerOptions, settings) {
    const transport = nodemailer.createTransport(providerOptions);
    return { send: (options) => transport.sendMail({ from: settings.defaultFrom, ...options }) };
  },
};
`;

async function signIn(app: TestApp): Promise<string> {
  const registered = await app.post('/admin/register-admin', ADMIN);
  if (registered.status !== 200) throw new Error(`register-admin: ${registered.text}`);
  return registered.body.data.token as string;
}

describe('email plugin admin: settings and test mail (Strapi 4.26.2 answers) [sqlite]', () => {
  const smtp = new TestSmtp();
  let app: TestApp;
  let admin: string;
  before(async () => {
    await smtp.start();
    const email = {
      provider: 'strapi-provider-email-smtp-test',
      providerOptions: { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, apiKey: 'secret-password' },
      settings: { defaultFrom: 'CMS <cms@example.com>', defaultReplyTo: 'help@example.com', testAddress: 'ops@example.com' },
    };
    app = await startApp({
      dialect: 'sqlite',
      files: {
        'package.json': ADMIN_PACKAGE,
        'node_modules/strapi-provider-email-smtp-test/package.json': { name: 'strapi-provider-email-smtp-test', version: '1.0.0', main: 'index.js' },
        'node_modules/strapi-provider-email-smtp-test/index.js': SMTP_PROVIDER,
      },
      config: { plugins: { email: { config: email } }, admin: { auth: { secret: 'email-admin-secret' } } },
    });
    admin = await signIn(app);
  });
  after(async () => {
    await app?.stop();
    await smtp.stop();
  });

  it('GET /email/settings: the provider and sender settings, never the provider options (credentials)', async () => {
    const settings = await app.get('/email/settings', { token: admin });
    expect(settings.body).to.deep.equal({ config: { provider: 'strapi-provider-email-smtp-test', settings: { defaultFrom: 'CMS <cms@example.com>', defaultReplyTo: 'help@example.com', testAddress: 'ops@example.com' } } });
    expect(settings.text).not.to.include('secret-password');
  });

  it('POST /email/test: Strapi\'s refusal without a recipient; a test mail through the provider with one', async () => {
    const none = recorded('email test no recipient');
    const refused = await app.post('/email/test', none.body, { token: admin });
    expect([refused.status, refused.body]).to.deep.equal([none.status, none.response]);
    expect((await app.post('/email/test', { to: ['a@example.com'] }, { token: admin })).status).to.equal(400);
    const before = smtp.mails.length;
    const sent = await app.post('/email/test', { to: 'ops@example.com' }, { token: admin });
    expect([sent.status, sent.body]).to.deep.equal([200, {}]);
    const mail = await smtp.next('ops@example.com', before);
    expect(mail.raw).to.match(/^Subject: Strapi test mail to: ops@example\.com/m);
    expect(mail.raw).to.match(/^From: CMS <cms@example\.com>/m);
    expect(mail.text).to.include('Great! You have correctly configured the Strapi email plugin with the strapi-provider-email-smtp-test provider.');
  });

  it('POST /email: a signed-in admin sends a message through the provider (Strapi\'s answer {})', async () => {
    const before = smtp.mails.length;
    const sent = await app.post('/email', { to: 'reader@example.com', subject: 'Hello from the admin', text: 'Hi!' }, { token: admin });
    expect([sent.status, sent.body]).to.deep.equal([200, {}]);
    expect((await smtp.next('reader@example.com', before)).raw).to.match(/^Subject: Hello from the admin/m);
    expect((await app.post('/email', { subject: 'no one' }, { token: admin })).status).to.equal(400);
  });

  it('answers admins only (Strapi\'s 401), and a content-API token is no admin', async () => {
    const anonymous = recorded('email settings anonymous');
    const response = await app.get('/email/settings');
    expect([response.status, response.body]).to.deep.equal([anonymous.status, anonymous.response]);
    expect((await app.post('/email/test', { to: 'ops@example.com' }, { token: await app.fullAccessToken() })).status).to.equal(401);
  });
});

describe('email plugin admin: an app with Strapi\'s default email config [sqlite]', () => {
  it('GET /email/settings answers exactly as Strapi 4.26.2 (sendmail, its default sender)', async () => {
    const app = await startApp({ dialect: 'sqlite', files: { 'package.json': ADMIN_PACKAGE }, config: { admin: { auth: { secret: 'email-admin-secret' } } } });
    try {
      const exchange = recorded('email settings');
      const response = await app.get('/email/settings', { token: await signIn(app) });
      expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.response]);
    } finally {
      await app.stop();
    }
  });
});

/**
 * The email plugin as Strapi v4's: a provider package installed in the app
 * (`strapi-provider-email-memory`, written into the app's node_modules here,
 * found by name as Strapi finds community providers), the `email` service,
 * `POST /api/email` with Strapi's answers, templated mail, and how it is
 * turned on. The provider keeps what it is given; the nodemailer and sendmail
 * packages themselves run against a real SMTP server in scripts/ecosystem.
 * The plugin reads no table, so one database is enough.
 */
import path from 'node:path';
import { expect } from 'chai';
import { bootError, startApp, type TestApp } from '@tessera/testing';
import type {} from '@tessera/plugin-email';

/** A provider package as Strapi's are written: `init(providerOptions, settings)` → `{ send }`. */
const MEMORY_PROVIDER = `'use strict';
const sent = [];
module.exports = {
  sent,
  init(providerOptions, settings) {
    return {
      providerOptions,
      async send(options) {
        if (options.subject === 'refuse') throw Object.assign(new Error('Recipient refused'), { statusCode: 400 });
        if (options.subject === 'fail') throw new Error('SMTP is down');
        sent.push({ from: settings.defaultFrom, ...options });
      },
    };
  },
};
`;

const PROVIDER_FILES = {
  'node_modules/strapi-provider-email-memory/package.json': { name: 'strapi-provider-email-memory', version: '1.0.0', main: 'index.js' },
  'node_modules/strapi-provider-email-memory/index.js': MEMORY_PROVIDER,
};

const EMAIL_CONFIG = {
  email: { config: { provider: 'strapi-provider-email-memory', providerOptions: { apiKey: 'k-1' }, settings: { defaultFrom: 'cms@example.com' } } },
};

function sentBy(app: TestApp): Array<Record<string, unknown>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(app.dir, 'node_modules/strapi-provider-email-memory')) as { sent: Array<Record<string, unknown>> }).sent;
}

describe('email plugin (Strapi v4 email, providers from npm)', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: PROVIDER_FILES, config: { plugins: EMAIL_CONFIG } });
  });
  after(() => app?.stop());

  it('makes the provider with its options and settings, and sends through it', async () => {
    const email = app.app.plugin('email')!;
    expect((email.provider as { providerOptions: unknown }).providerOptions).to.deep.equal({ apiKey: 'k-1' });
    await email.service('email').send({ to: 'ada@example.com', subject: 'Hi', text: 'Hello' });
    expect(sentBy(app).at(-1)).to.deep.equal({ from: 'cms@example.com', to: 'ada@example.com', subject: 'Hi', text: 'Hello' });
    expect(email.service('email').getProviderSettings()).to.deep.include({ provider: 'strapi-provider-email-memory', settings: { defaultFrom: 'cms@example.com' } });
  });

  it('sendTemplatedEmail interpolates the data keys, deep ones too, and leaves anything else as written', async () => {
    const service = app.app.plugin('email')!.service('email');
    await service.sendTemplatedEmail(
      { to: 'ada@example.com' },
      { subject: 'Welcome <%= user.firstname %>', text: 'Code <%=code%>, <%= other %>, <% evil() %>', html: '<p><%= user.firstname %></p>' },
      { user: { firstname: 'Ada' }, code: 42 },
    );
    expect(sentBy(app).at(-1)).to.deep.equal({
      from: 'cms@example.com',
      to: 'ada@example.com',
      subject: 'Welcome Ada',
      text: 'Code 42, <%= other %>, <% evil() %>',
      html: '<p>Ada</p>',
    });
    // Thrown at once, as Strapi's (not async) throws.
    expect(() => service.sendTemplatedEmail({ to: 'x@example.com' }, { subject: 'S' }, {})).to.throw('Following attributes are missing from your email template : text, html');
  });

  it('POST /api/email sends with the action plugin::email.email.send, answering {} as Strapi does', async () => {
    const token = await app.fullAccessToken();
    const sent = await app.post('/api/email', { to: 'grace@example.com', subject: 'Over HTTP', text: 'yes' }, { token });
    expect(sent.status).to.equal(200);
    expect(sent.body).to.deep.equal({});
    expect(sentBy(app).at(-1)).to.deep.include({ to: 'grace@example.com', subject: 'Over HTTP' });
    const anonymous = await app.post('/api/email', { to: 'grace@example.com', subject: 'No' });
    expect(anonymous.status).to.equal(401);
    expect(app.app.routes.get('plugin::email.content-api').routes).to.have.length(1);
  });

  it("answers a provider's 400 as ApplicationError, its other failures as a 500, and a body without a recipient as a 400", async () => {
    const token = await app.fullAccessToken();
    const refused = await app.post('/api/email', { to: 'a@example.com', subject: 'refuse' }, { token });
    expect(refused.body).to.deep.equal({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Recipient refused', details: {} } });
    const failed = await app.post('/api/email', { to: 'a@example.com', subject: 'fail' }, { token });
    expect(failed.status).to.equal(500);
    expect(failed.body.error.name).to.equal('InternalServerError');
    for (const body of [{ subject: 'nobody' }, [], 'text']) {
      const response = await app.post('/api/email', body, { token });
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
    }
  });
});

describe('email plugin: which apps run it, and with which provider', () => {
  it('is on for a Strapi app (it depends on @strapi/strapi) and logs messages when no provider is installed', async () => {
    const app = await startApp({ dialect: 'sqlite', noListen: true, files: { 'package.json': { name: 'a', dependencies: { '@strapi/strapi': '4.26.2' } } } });
    try {
      const email = app.app.plugin('email');
      expect(email).to.not.equal(undefined);
      expect(email!.config('provider')).to.equal('sendmail');
      await email!.service('email').send({ to: 'ada@example.com', subject: 'logged' });
    } finally {
      await app.stop();
    }
  });

  it('is off for an app that neither depends on Strapi nor names it', async () => {
    const app = await startApp({ dialect: 'sqlite', noListen: true });
    try {
      expect(app.app.plugin('email')).to.equal(undefined);
    } finally {
      await app.stop();
    }
  });

  it('stops the boot naming a provider that is not installed', async () => {
    const error = await bootError({ dialect: 'sqlite', config: { plugins: { email: { config: { provider: 'mailgun' } } } } });
    expect(error.message).to.contain('Could not load email provider "mailgun" (install @strapi/provider-email-mailgun or a package named mailgun)');
  });
});

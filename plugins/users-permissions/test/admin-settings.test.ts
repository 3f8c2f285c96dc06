/**
 * Settings → Users & Permissions → Providers, Email templates and Advanced settings, as the panel calls them:
 * Strapi 4.26.2's answers (recorded on the peer), the rows in the core store where Strapi keeps them, and their
 * effect at once on what users-permissions does — register refused when switched off, the next forgot-password mail
 * (to a real SMTP server) made from the edited template, providers' `enabled` deciding `/api/connect/:provider`.
 */
import { expect } from 'chai';
import { eachDatabase, TestSmtp, type TestApp } from '@tessera/testing';
import { register, startUpApp } from './fixture';
import { recorded, startAdminApp } from './admin-fixture';

const STORE_UID = 'strapi::core-store';

eachDatabase('users-permissions admin: providers, email templates, advanced settings (Strapi 4.26.2 answers)', (dialect) => {
  const smtp = new TestSmtp();
  let app: TestApp;
  let admin: string;
  before(async () => {
    await smtp.start();
    // The sender Strapi's own templates name, so the first boot's templates are Strapi's to the letter.
    const email = { provider: 'smtp', providerOptions: { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }, from: 'Administration Panel <no-reply@strapi.io>' };
    ({ app, admin } = await startAdminApp(dialect, { config: { email } }));
  });
  after(async () => {
    await app?.stop();
    await smtp.stop();
  });
  const as = () => ({ token: admin });
  const storeRow = async (key: string) => {
    const row = await app.app.db.query(STORE_UID).findOne({ where: { key: `plugin_users-permissions_${key}` } });
    return row ? JSON.parse(String(row.value)) : null;
  };
  /** `redirectUri` is the server's own address: the peer's origin was recorded as `<server>`. */
  const withServer = (providers: Record<string, Record<string, unknown>>) => {
    for (const provider of Object.values(providers)) if (typeof provider.redirectUri === 'string') provider.redirectUri = provider.redirectUri.replace(/^.*(?=\/api\/connect\/)/, '<server>');
    return providers;
  };

  it('providers: Strapi\'s grant row, read and written; a provider turned on reaches the connect route', async () => {
    const providers = await app.get('/users-permissions/providers', as());
    expect(providers.status).to.equal(200);
    expect(withServer(providers.body)).to.deep.equal(recorded('providers').response);
    const empty = recorded('providers update empty');
    expect((await app.put('/users-permissions/providers', {}, as())).body).to.deep.equal(empty.response);
    const update = recorded('providers update');
    const updated = await app.put('/users-permissions/providers', update.body, as());
    expect([updated.status, updated.body]).to.deep.equal([update.status, update.response]);
    expect(withServer((await app.get('/users-permissions/providers', as())).body)).to.deep.equal(recorded('providers after update').response);
    expect((await storeRow('grant')).github).to.deep.include({ enabled: true, key: 'gh-key', secret: 'gh-secret' });
    // Enabled now: the connect route redirects to GitHub's authorize URL with the stored client id (providers.test.ts).
    const connect = await fetch(`${app.url}/api/connect/github`, { redirect: 'manual' });
    const callbackUrl = encodeURIComponent(`${app.url}/api/connect/github/callback`);
    expect([connect.status, connect.headers.get('location')]).to.deep.equal([302, `https://github.com/login/oauth/authorize?client_id=gh-key&response_type=code&redirect_uri=${callbackUrl}&scope=user%2Cuser%3Aemail`]);
    expect((await app.put('/users-permissions/providers', { providers: [] }, as())).status).to.equal(400);
    expect((await storeRow('grant')).github.enabled).to.equal(true);
    // The Email provider switched off: password login refused, as on Strapi (REST and GraphQL go through the same check).
    const grant = await storeRow('grant');
    const disabled = recorded('login with the email provider disabled');
    const login = disabled.body;
    expect((await app.put('/users-permissions/providers', { providers: { ...grant, email: { ...grant.email, enabled: false } } }, as())).body).to.deep.equal({ ok: true });
    const refused = await app.post('/api/auth/local', login);
    expect([refused.status, refused.body]).to.deep.equal([disabled.status, disabled.response]);
    expect((await app.put('/users-permissions/providers', { providers: grant }, as())).body).to.deep.equal({ ok: true });
    expect((await app.post('/api/auth/local', login)).body.error.message).to.equal('Invalid identifier or password');
  });

  it('email templates: Strapi\'s defaults; invalid ones refused; an edit shapes the next forgot-password mail', async () => {
    const templates = await app.get('/users-permissions/email-templates', as());
    expect(templates.body).to.deep.equal(recorded('email templates').response);
    for (const name of ['email templates update empty', 'email templates update invalid', 'email templates update evaluate']) {
      const exchange = recorded(name);
      const response = await app.put('/users-permissions/email-templates', exchange.body, as());
      expect([response.status, response.body], name).to.deep.equal([exchange.status, exchange.response]);
    }
    expect(await storeRow('email')).to.deep.equal(recorded('email templates').response);

    await register(app, 'pia');
    const before = smtp.mails.length;
    await app.post('/api/auth/forgot-password', { email: 'pia@example.com' });
    const first = await smtp.next('pia@example.com', before);
    expect(first.raw).to.match(/^From: Administration Panel <no-reply@strapi\.io>/m);
    expect(first.raw).to.match(/^Subject: Reset password/m);
    expect(first.text).to.match(/But don’t worry! You can use the following link to reset your password:/);

    const update = recorded('email templates update');
    const updated = await app.put('/users-permissions/email-templates', update.body, as());
    expect([updated.status, updated.body]).to.deep.equal([update.status, update.response]);
    expect((await app.get('/users-permissions/email-templates', as())).body).to.deep.equal(recorded('email templates after update').response);
    const next = smtp.mails.length;
    await app.post('/api/auth/forgot-password', { email: 'pia@example.com' });
    const second = await smtp.next('pia@example.com', next);
    expect(second.raw).to.match(/^Subject: Reset for pia/m);
    const code = /Hello pia, reset here: http:\/\/localhost:1337\/reset-password\?code=([0-9]+\.[0-9a-f]{64})/.exec(second.text)![1];
    const reset = await app.post('/api/auth/reset-password', { code, password: 'N3wPassw0rd', passwordConfirmation: 'N3wPassw0rd' });
    expect(reset.status).to.equal(200);
  });

  it('advanced settings: the config\'s values written at first boot; a change applies at once (register refused, then allowed)', async () => {
    const advanced = await app.get('/users-permissions/advanced', as());
    const recordedAnswer = recorded('advanced').response;
    // Tessera's config defaults where Strapi's are null (the reset URL, the confirmation redirect).
    expect(advanced.body.settings).to.deep.equal({ ...recordedAnswer.settings, email_reset_password: 'http://localhost:1337/reset-password', email_confirmation_redirection: '/' });
    expect(advanced.body.roles.map((role: { type: string; nb_users: number }) => [role.type, role.nb_users])).to.deep.equal([['authenticated', 1], ['public', 0]]);
    expect(Object.keys(advanced.body.roles[0])).to.deep.equal(Object.keys(recordedAnswer.roles[0]));
    expect((await app.put('/users-permissions/advanced', {}, as())).body).to.deep.equal(recorded('advanced update empty').response);

    const update = recorded('advanced update');
    expect((await app.put('/users-permissions/advanced', update.body, as())).body).to.deep.equal(update.response);
    expect((await app.get('/users-permissions/advanced', as())).body.settings).to.deep.equal(recorded('advanced after update').response.settings);
    const refused = recorded('register when refused');
    const response = await app.post('/api/auth/local/register', refused.body);
    expect([response.status, response.body]).to.deep.equal([refused.status, refused.response]);

    const restore = recorded('advanced restore');
    expect((await app.put('/users-permissions/advanced', restore.body, as())).body).to.deep.equal(restore.response);
    expect((await app.post('/api/auth/local/register', refused.body)).status).to.equal(200);
  });

  it('advanced settings: a bad body is a 400 that changes nothing', async () => {
    const before = await storeRow('advanced');
    const valid = recorded('advanced update').body as Record<string, unknown>;
    for (const body of [{ ...valid, allow_register: 'no' }, { ...valid, default_role: 'nobody' }, { ...valid, email_reset_password: 'x'.repeat(3000) }, [valid]]) {
      const response = await app.put('/users-permissions/advanced', body, as());
      expect(response.status).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
    }
    expect(await storeRow('advanced')).to.deep.equal(before);
  });

  it('email confirmation switched on in the panel: register mails the stored confirmation template, login waits for it', async () => {
    const settings = { ...(recorded('advanced restore').body as Record<string, unknown>), email_confirmation: true, email_confirmation_redirection: 'https://front.test/welcome' };
    expect((await app.put('/users-permissions/advanced', settings, as())).body).to.deep.equal({ ok: true });
    const before = smtp.mails.length;
    const registered = await app.post('/api/auth/local/register', { username: 'cleo', email: 'cleo@example.com', password: 'Passw0rd!' });
    expect(Object.keys(registered.body)).to.deep.equal(['user']);
    expect((await app.post('/api/auth/local', { identifier: 'cleo', password: 'Passw0rd!' })).body.error.message).to.equal('Your account email is not confirmed');
    const mail = await smtp.next('cleo@example.com', before);
    expect(mail.raw).to.match(/^Subject: Account confirmation/m);
    const link = /(http:\/\/[^\s"<]+\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{64})/.exec(mail.text)![1];
    const confirmed = await fetch(link, { redirect: 'manual' });
    expect([confirmed.status, confirmed.headers.get('location')]).to.deep.equal([302, 'https://front.test/welcome']);
    expect((await app.post('/api/auth/local', { identifier: 'cleo', password: 'Passw0rd!' })).status).to.equal(200);
    expect((await app.put('/users-permissions/advanced', recorded('advanced restore').body, as())).body).to.deep.equal({ ok: true });
  });

  it('config is the first boot\'s: on a database that has the row, a changed config does not override it', async () => {
    const first = await startUpApp(dialect);
    await first.stop({ keepDatabase: true });
    const restarted = await startUpApp(dialect, { database: first.database, config: { advanced: { allowRegister: false } } });
    try {
      // The row written at the first boot says register is allowed (the panel changes it; the boot warns of the config).
      expect((await restarted.post('/api/auth/local/register', { username: 'later', email: 'later@example.com', password: 'Passw0rd!' })).status).to.equal(200);
    } finally {
      await restarted.stop();
    }
  });
});

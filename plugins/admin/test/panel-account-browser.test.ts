/**
 * The admin's own account and the Users page in Chromium (Strapi 4.26.2's real panel, served by Tessera from the
 * example app, every other host cut off): the Super Admin changes its password from the profile (the old one is then
 * refused, the new one signs in) and its interface language (French menus after a reload, then English again); on
 * Settings → Users it changes an invited user's roles and last name, deletes one user from its row and two at once,
 * and searches the list by e-mail; on Settings → Email it reads the app's email configuration and sends a test mail
 * to a real SMTP server of the test; on Settings → Media Library it turns responsive images off and on, each upload
 * after it with or without its formats; on Settings → Transfer Tokens it creates a token. Each step acts in the
 * panel, then reads the effect from the admin API or the database. The example app's `src/admin/app.js` offers
 * French, as a Strapi app must for the profile to list it.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openBrowser, type TestApp, filledValue, panelHome, TestSmtp } from '@tessera/testing';
import { FILE_UID } from '@tessera/database';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { signInToPanel, skipUnlessPanelRuns, startPanelApp } from './panel-build';

const ADA = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
const NEW_PASSWORD = 'Changed456';
/** Made through the admin API: Ivy stays invited (inactive), the others register. */
const USERS = [
  { firstname: 'Ivy', lastname: 'Invited', email: 'ivy@example.com', role: 'strapi-author', registers: false },
  { firstname: 'Dan', lastname: 'Doomed', email: 'dan@example.com', role: 'strapi-author', registers: true },
  { firstname: 'Bea', lastname: 'Batch', email: 'bea@example.com', role: 'strapi-editor', registers: true },
  { firstname: 'Cal', lastname: 'Batch', email: 'cal@example.com', role: 'strapi-author', registers: true },
];
const WAIT = { timeout: 60_000 };

const EMAIL_SETTINGS = { defaultFrom: 'CMS <cms@example.com>', defaultReplyTo: 'help@example.com' };
const TRANSFER_SALT = 'panel-account-transfer-salt';

describe('admin panel in Chromium: own password and language, the Users page, Email, Media Library and Transfer Tokens settings [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jwt: string;
  const ids = new Map<string, number>();
  const roleIds = new Map<string, number>();
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const failed: string[] = [];
  const smtp = new TestSmtp();

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    await smtp.start();
    // The email plugin's provider, given as an object (`init(providerOptions, settings)`, as a provider package's
    // export): the app's node_modules is the repository's, linked, so no provider package can be installed into it.
    const provider = {
      init: (options: Record<string, unknown>, settings: typeof EMAIL_SETTINGS) => {
        const transport = nodemailer.createTransport(options);
        return { send: (message: Record<string, unknown>) => transport.sendMail({ from: settings.defaultFrom, replyTo: settings.defaultReplyTo, ...message }) };
      },
    };
    const email = { provider, providerOptions: { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }, settings: EMAIL_SETTINGS };
    app = await startPanelApp({
      config: { plugins: { email: { config: email } }, admin: { apiToken: { salt: 'test-salt' }, transfer: { token: { salt: TRANSFER_SALT } } } },
    });
    const registered = await app.post('/admin/register-admin', ADA);
    expect(registered.status).to.equal(200);
    jwt = registered.body.data.token;
    const roles = (await app.get('/admin/roles', { token: jwt })).body.data as Array<{ id: number; code: string }>;
    for (const role of roles) roleIds.set(role.code, role.id);
    for (const user of USERS) {
      const made = await app.post('/admin/users', { firstname: user.firstname, lastname: user.lastname, email: user.email, roles: [roleIds.get(user.role)] }, { token: jwt });
      expect(made.status).to.equal(201);
      ids.set(user.email, made.body.data.id);
      if (!user.registers) continue;
      const userInfo = { firstname: user.firstname, lastname: user.lastname, password: 'Member123' };
      expect((await app.post('/admin/register', { registrationToken: made.body.data.registrationToken, userInfo })).status).to.equal(200);
    }
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors, failed }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    if (smtp.port !== 0) await smtp.stop();
  });

  const openProfile = async () => {
    await page.goto(`${app.url}/admin/me`);
    await page.waitForSelector('input[name="firstname"]', WAIT);
    await filledValue(page, 'input[name="email"]');
  };
  const signOut = async (name: string) => {
    await page.click(`nav button:has-text("${name}")`);
    await page.getByText('Logout', { exact: true }).click();
    await page.waitForSelector('input[name="email"]', WAIT);
  };
  /** The main menu's link texts, as the panel shows them. */
  const menu = async () => (await page.locator('nav a').allTextContents()).map((text) => text.trim()).filter((text) => text !== '');
  /** Clicks the profile's Save (named in the page's language) and waits for the server's answer. */
  const saveProfile = async (label: string) => {
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && new URL(response.url()).pathname === '/admin/users/me', WAIT);
    await page.getByRole('button', { name: label }).click();
    expect((await saved).status()).to.equal(200);
  };
  const me = async () => (await app.get('/admin/users/me', { token: jwt })).body.data as { preferedLanguage: string | null; firstname: string };

  it('changes its password from the profile: the old one is refused at the sign-in, the new one signs in', async function () {
    this.timeout(120_000);
    await signInToPanel(page, app.url, ADA);
    await openProfile();
    await page.fill('input[name="currentPassword"]', ADA.password);
    await page.fill('input[name="password"]', NEW_PASSWORD);
    await page.fill('input[name="confirmPassword"]', NEW_PASSWORD);
    await saveProfile('Save');
    await page.waitForSelector('text=Saved', WAIT);
    await signOut('Ada Lovelace');
    // Queries the panel still had in flight when it dropped the session answer 401, as on Strapi: not this check's.
    failed.splice(0);
    await page.fill('input[name="email"]', ADA.email);
    await page.fill('input[name="password"]', ADA.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('text=Invalid credentials', WAIT);
    expect(failed.splice(0)).to.deep.equal(['POST /admin/login 400']);
    await page.fill('input[name="password"]', NEW_PASSWORD);
    await page.click('button[type="submit"]');
    await panelHome(page);
    // The server's verdict, not the page's: the old password is refused, the new one answers a session.
    const old = await app.post('/admin/login', { email: ADA.email, password: ADA.password });
    expect([old.status, old.body.error?.message]).to.deep.equal([400, 'Invalid credentials']);
    const fresh = await app.post('/admin/login', { email: ADA.email, password: NEW_PASSWORD });
    expect([fresh.status, fresh.body.data?.user?.email]).to.deep.equal([200, ADA.email]);
    jwt = fresh.body.data.token;
  });

  it('switches its interface language to Français: stored on its account, and the menu is French after a reload', async function () {
    this.timeout(120_000);
    expect(await menu()).to.include.members(['Content Manager', 'Settings']);
    await openProfile();
    await page.getByRole('combobox', { name: 'Interface language' }).click();
    await page.getByRole('option', { name: 'Français' }).click();
    await saveProfile('Save');
    expect((await me()).preferedLanguage).to.equal('fr');
    await page.reload();
    await page.waitForSelector('nav a:has-text("Paramètres")', WAIT);
    const french = await menu();
    expect(french).to.include.members(['Gestion du contenu', 'Paramètres']);
    expect(french).not.to.include('Settings');
  });

  it('sets it back to English: stored, and the menu is English after a reload', async function () {
    this.timeout(120_000);
    await openProfile();
    await page.getByRole('combobox', { name: "Langue de l'interface" }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await saveProfile('Enregistrer');
    expect((await me()).preferedLanguage).to.equal('en');
    await page.reload();
    await page.waitForSelector('nav a:has-text("Settings")', WAIT);
    expect(await menu()).to.include.members(['Content Manager', 'Settings']);
  });

  /** The users as the admin API lists them: e-mail → role codes, sorted. */
  const listed = async (query = '') => {
    const answer = await app.get(`/admin/users?pageSize=100${query}`, { token: jwt });
    expect(answer.status).to.equal(200);
    const users = answer.body.data.results as Array<{ email: string; lastname: string; roles: Array<{ code: string }> }>;
    return new Map(users.map((user) => [user.email, { lastname: user.lastname, roles: user.roles.map((role) => role.code).sort() }]));
  };

  it("opens the invited user, adds Editor, removes Author and changes its last name: the admin API answers them", async function () {
    this.timeout(120_000);
    const ivy = USERS[0];
    await page.goto(`${app.url}/admin/settings/users`);
    await page.waitForSelector(`text=${ivy.email}`, WAIT);
    await page.getByRole('button', { name: `Edit ${ivy.firstname} ${ivy.lastname}` }).click();
    await page.waitForURL(new RegExp(`/admin/settings/users/${ids.get(ivy.email)}$`), WAIT);
    expect(await filledValue(page, 'input[name="email"]')).to.equal(ivy.email);
    await page.fill('input[name="lastname"]', 'Promoted');
    await page.click('#roles');
    await page.getByRole('option', { name: 'Editor' }).click();
    await page.getByRole('option', { name: 'Author' }).click();
    await page.locator('#roles').click({ force: true });
    await page.waitForSelector('[role="listbox"]', { state: 'detached', ...WAIT });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=Saved', WAIT);
    expect((await listed()).get(ivy.email)).to.deep.equal({ lastname: 'Promoted', roles: ['strapi-editor'] });
    const one = await app.get(`/admin/users/${ids.get(ivy.email)}`, { token: jwt });
    expect([one.body.data.isActive, one.body.data.roles.map((role: { code: string }) => role.code)]).to.deep.equal([false, ['strapi-editor']]);
  });

  /** Rows and role links of these users left in the database. */
  const stored = async (emails: string[]) => {
    const rows = await app.app.db.query(USER_UID).findMany({ where: { email: { $in: emails } }, select: ['email'] });
    const links = await app.app.db.query(ROLE_UID).findMany({ where: { users: { id: { $in: emails.map((email) => ids.get(email)) } } }, select: ['code'] });
    return { rows: rows.length, links: links.length };
  };

  it("deletes a user from its row: gone from the admin API and the database, role links included", async function () {
    this.timeout(120_000);
    const dan = USERS[1];
    expect(await stored([dan.email])).to.deep.equal({ rows: 1, links: 1 });
    await page.goto(`${app.url}/admin/settings/users`);
    await page.waitForSelector(`text=${dan.email}`, WAIT);
    // The row's delete button and checkbox sit in cells helper-plugin marks aria-hidden (its stopPropagation props).
    await page.getByLabel(`Delete ${dan.firstname} ${dan.lastname}`).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForSelector(`text=${dan.email}`, { state: 'detached', ...WAIT });
    expect([...(await listed()).keys()].sort()).to.deep.equal([ADA.email, USERS[2].email, USERS[3].email, USERS[0].email].sort());
    expect(await stored([dan.email])).to.deep.equal({ rows: 0, links: 0 });
  });

  it('deletes two users at once from their checkboxes: both gone from the admin API and the database', async function () {
    this.timeout(120_000);
    const pair = [USERS[2], USERS[3]];
    expect(await stored(pair.map((user) => user.email))).to.deep.equal({ rows: 2, links: 2 });
    for (const user of pair) await page.getByRole('checkbox', { name: `Select ${user.firstname} ${user.lastname}`, includeHidden: true }).check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    for (const user of pair) await page.waitForSelector(`text=${user.email}`, { state: 'detached', ...WAIT });
    expect([...(await listed()).keys()].sort()).to.deep.equal([ADA.email, USERS[0].email]);
    expect(await stored(pair.map((user) => user.email))).to.deep.equal({ rows: 0, links: 0 });
  });

  it('searches the Users list by e-mail: the list is what the admin API answers to that search', async function () {
    this.timeout(120_000);
    const searches: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      // The list asks `/admin/users/?_q=…` (with its slash).
      if (/^\/admin\/users\/?$/.test(url.pathname) && url.searchParams.has('_q')) searches.push(`${url.searchParams.get('_q')} ${response.status()}`);
    });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('textbox', { name: /Search/ }).fill('ivy@');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`text=${ADA.email}`, { state: 'detached', ...WAIT });
    const shown = await page.locator('tbody tr').allTextContents();
    expect(shown.length).to.equal(1);
    expect(shown[0]).to.include(USERS[0].email);
    expect(searches).to.deep.equal(['ivy@ 200']);
    expect([...(await listed('&_q=ivy%40')).keys()]).to.deep.equal([USERS[0].email]);
  });

  it("shows the app's email configuration on Settings → Email, and its test mail reaches the SMTP server", async function () {
    this.timeout(120_000);
    await page.goto(`${app.url}/admin/settings/email`);
    await page.waitForSelector('input[name="test-address"]', WAIT);
    const field = (label: string) => page.getByLabel(label, { exact: true });
    // The provider is shown in a disabled select, the senders in disabled inputs.
    const provider = page.getByRole('combobox', { name: 'Email provider' });
    await provider.waitFor(WAIT);
    const shown = { provider: (await provider.innerText()).trim(), from: await field('Default sender email').inputValue(), replyTo: await field('Default response email').inputValue() };
    // A provider given as an object has no name: the page shows it as `custom` (plugins/email/src/admin.ts).
    const configured = app.app.config.get<{ settings: typeof EMAIL_SETTINGS }>('plugin.email');
    expect(shown).to.deep.equal({ provider: 'custom', from: configured.settings.defaultFrom, replyTo: configured.settings.defaultReplyTo });
    expect((await app.get('/email/settings', { token: jwt })).body).to.deep.equal({ config: { provider: 'custom', settings: EMAIL_SETTINGS } });
    const mailsBefore = smtp.mails.length;
    await page.fill('input[name="test-address"]', 'ops@example.com');
    await page.getByRole('button', { name: 'Send test email' }).click();
    await page.waitForSelector('text=Email test succeeded, check the ops@example.com mailbox', WAIT);
    const mail = await smtp.next('ops@example.com', mailsBefore);
    expect(mail.raw).to.match(/^Subject: Strapi test mail to: ops@example\.com/m);
    expect(mail.raw).to.match(/^From: CMS <cms@example\.com>/m);
    expect(mail.raw).to.match(/^Reply-To: help@example\.com/m);
    expect(mail.text).to.include('with the custom provider');
  });

  /** Sets "Responsive friendly upload" on Settings → Media Library and saves; answers what the server then holds. */
  const setResponsive = async (on: boolean) => {
    await page.goto(`${app.url}/admin/settings/media-library`);
    // The toggle's checkbox covers its FALSE/TRUE options, transparent.
    const toggle = page.locator('input[name="responsiveDimensions"]');
    await toggle.waitFor(WAIT);
    if ((await toggle.isChecked()) !== on) await toggle.click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=Saved', WAIT);
    return (await app.get('/upload/settings', { token: jwt })).body.data as { responsiveDimensions: boolean };
  };
  /** Uploads a 1200×900 image from the media library; answers its stored formats' names. */
  const uploadImage = async (name: string) => {
    const { default: sharp } = await import('sharp');
    const image = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();
    await page.goto(`${app.url}/admin/plugins/upload`);
    await page.getByRole('button', { name: 'Add new assets' }).first().click();
    await page.waitForSelector('input[type="file"]', { state: 'attached', ...WAIT });
    await page.setInputFiles('input[type="file"]', { name, mimeType: 'image/png', buffer: image });
    const uploaded = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/upload', WAIT);
    await page.getByRole('button', { name: /Upload 1 asset/ }).click();
    expect((await uploaded).status()).to.equal(200);
    const row = await app.app.db.query(FILE_UID).findOne({ where: { name }, select: ['formats', 'width'] });
    expect(row?.width).to.equal(1200);
    return Object.keys((row?.formats as Record<string, unknown> | null) || {}).sort();
  };

  it('turns responsive images off on Settings → Media Library: the next upload has a thumbnail and no small, medium or large', async function () {
    this.timeout(120_000);
    expect((await app.get('/upload/settings', { token: jwt })).body.data.responsiveDimensions).to.equal(true);
    expect((await setResponsive(false)).responsiveDimensions).to.equal(false);
    expect(await uploadImage('fixed.png')).to.deep.equal(['thumbnail']);
  });

  it('turns them on again: the next upload has its small, medium and large formats', async function () {
    this.timeout(120_000);
    expect((await setResponsive(true)).responsiveDimensions).to.equal(true);
    expect(await uploadImage('responsive.png')).to.deep.equal(['large', 'medium', 'small', 'thumbnail']);
  });

  it('creates a transfer token on Settings → Transfer Tokens: listed by the admin API, its key stored as its HMAC', async function () {
    this.timeout(120_000);
    await page.goto(`${app.url}/admin/settings/transfer-tokens`);
    await page.getByRole('link', { name: /Add new Transfer Token|Create new Transfer Token/ }).first().click();
    await page.waitForSelector('input[name="name"]', WAIT);
    await page.fill('input[name="name"]', 'staging-push');
    await page.getByLabel('Description').fill('Pushes to staging');
    await page.getByRole('combobox', { name: 'Token duration' }).click();
    await page.getByRole('option', { name: 'Unlimited' }).click();
    await page.getByRole('combobox', { name: 'Token type' }).click();
    await page.getByRole('option', { name: 'Push' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/admin\/settings\/transfer-tokens\/\d+$/, WAIT);
    const key = /\b[0-9a-f]{256}\b/.exec(await page.locator('main').innerText())?.[0];
    expect(key, 'the access key shown once').to.be.a('string');
    const tokens = (await app.get('/admin/transfer/tokens', { token: jwt })).body.data as Array<{ name: string; description: string; permissions: string[] }>;
    expect(tokens.map(({ name, description, permissions }) => ({ name, description, permissions }))).to.deep.equal([{ name: 'staging-push', description: 'Pushes to staging', permissions: ['push'] }]);
    const row = await app.app.db.query('admin::transfer-token').findOne({ where: { name: 'staging-push' }, select: ['accessKey'] });
    expect(row?.accessKey).to.equal(crypto.createHmac('sha512', TRANSFER_SALT).update(key!).digest('hex'));
    await page.goto(`${app.url}/admin/settings/transfer-tokens`);
    await page.waitForSelector('text=staging-push', WAIT);
  });

  it('ran without a page error or a failed request, and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(failed).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});

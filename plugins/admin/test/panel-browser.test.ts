/**
 * Strapi 4.26.2's real admin panel in Debian's Chromium (playwright-core),
 * served by Tessera from a fresh example app, every other host cut off: the
 * first admin registers, logs out, is refused with a wrong password (the
 * panel's own message), logs in, edits the profile, and invites an Editor and
 * an Author from the Users page; each opens its invitation link, sets a
 * password, logs out and in, and sees what its permissions give; the Editor
 * then resets a forgotten password through the mailed link (a real SMTP
 * server of the test). Each effect is checked
 * on the server too. The panel is built once per run (panel-build.ts); without
 * Chromium or @strapi/admin the test says why and skips (under CI, Chromium
 * missing fails).
 */
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import nodemailer from 'nodemailer';
import { TestSmtp, openBrowser, type TestApp, panelHome, filledValue } from '@tessera/testing';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { skipUnlessPanelRuns, startPanelApp } from './panel-build';

const ADA = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
/** Invited from the Users page, each with one of Strapi's default roles. */
const INVITED = [
  { firstname: 'Eddie', lastname: 'Editor', email: 'eddie@example.com', role: 'Editor', code: 'strapi-editor', password: 'Editor123' },
  { firstname: 'Aurora', lastname: 'Author', email: 'aurora@example.com', role: 'Author', code: 'strapi-author', password: 'Author123' },
];
const WAIT = { timeout: 60_000 };

describe('admin panel in Chromium: first admin, log out and in, profile, invitations [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const blocked: string[] = [];
  const smtp = new TestSmtp();
  const pageErrors: string[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    // Reset mails go out through the email plugin to an SMTP server of this test.
    await smtp.start();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    const email = { config: { provider: { init: () => ({ send: (message: Record<string, unknown>) => transport.sendMail({ from: 'cms@example.com', ...message }) }) }, providerOptions: {}, settings: {} } };
    app = await startPanelApp({ config: { plugins: { email } } });
    // The invitation link is read back from the clipboard the Users page copies it to.
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors }, { permissions: ['clipboard-read', 'clipboard-write'] }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    if (smtp.port !== 0) await smtp.stop();
  });

  const openUserMenu = async (name: string) => page.click(`nav button:has-text("${name}")`);

  it('opens /admin on the registration of the first admin, and registers it as Super Admin', async function () {
    this.timeout(120_000);
    await page.goto(`${app.url}/admin`);
    await page.waitForSelector('input[name="firstname"]', WAIT);
    expect(new URL(page.url()).pathname).to.equal('/admin/auth/register-admin');
    await page.fill('input[name="firstname"]', ADA.firstname);
    await page.fill('input[name="lastname"]', ADA.lastname);
    await page.fill('input[name="email"]', ADA.email);
    await page.fill('input[name="password"]', ADA.password);
    await page.fill('input[name="confirmPassword"]', ADA.password);
    await page.click('button[type="submit"]');
    await panelHome(page);
    const admins = await app.app.db.query(USER_UID).findMany({ select: ['id', 'email', 'firstname'] });
    expect(admins.map(({ email, firstname }) => ({ email, firstname }))).to.deep.equal([{ email: ADA.email, firstname: 'Ada' }]);
    const roles = await app.app.db.query(ROLE_UID).findMany({ where: { users: { id: admins[0].id } }, select: ['code'] });
    expect(roles.map((role) => role.code)).to.deep.equal(['strapi-super-admin']);
  });

  it('logs out from the user menu, back to the login page', async function () {
    await openUserMenu('Ada Lovelace');
    await page.getByText('Logout', { exact: true }).click();
    await page.waitForSelector('input[name="email"]', WAIT);
    expect(new URL(page.url()).pathname).to.equal('/admin/auth/login');
  });

  it('refuses a wrong password with the panel message, then logs in', async function () {
    await page.fill('input[name="email"]', ADA.email);
    await page.fill('input[name="password"]', 'Wrong1234');
    await page.click('button[type="submit"]');
    await page.waitForSelector('text=Invalid credentials', WAIT);
    expect(new URL(page.url()).pathname).to.equal('/admin/auth/login');
    await page.fill('input[name="password"]', ADA.password);
    await page.click('button[type="submit"]');
    await panelHome(page);
  });

  it('edits the profile: the new first name is saved on the server', async function () {
    await openUserMenu('Ada Lovelace');
    await page.getByText('Profile', { exact: true }).click();
    await page.waitForSelector('input[name="firstname"]', WAIT);
    await page.fill('input[name="firstname"]', 'Augusta');
    await page.click('button:has-text("Save")');
    await page.waitForSelector('text=Saved', WAIT);
    const stored = await app.app.db.query(USER_UID).findOne({ where: { email: ADA.email }, select: ['firstname', 'lastname'] });
    expect([stored?.firstname, stored?.lastname]).to.deep.equal(['Augusta', 'Lovelace']);
    await page.waitForSelector('nav button:has-text("Augusta Lovelace")', WAIT);
  });

  const invitations = new Map<string, string>();
  let adaToken = '';

  it('invites an Editor and an Author from the Users page, each with its invitation link', async function () {
    this.timeout(120_000);
    adaToken = (await app.post('/admin/login', { email: ADA.email, password: ADA.password })).body.data.token;
    // The Users page shows for an admin holding admin::users.read (the Super Admin holds every action), and its role
    // picker lists GET /admin/roles.
    const held = (await app.get('/admin/users/me/permissions', { token: adaToken })).body.data as Array<{ action: string }>;
    expect(held.map((permission) => permission.action)).to.include.members(['admin::users.create', 'admin::users.read', 'admin::roles.read']);
    await page.goto(`${app.url}/admin/settings/users`);
    await page.waitForSelector('text=Augusta Lovelace', WAIT);
    for (const user of INVITED) {
      await page.getByRole('button', { name: 'Invite new user' }).first().click();
      await page.fill('input[name="firstname"]', user.firstname);
      await page.fill('input[name="lastname"]', user.lastname);
      await page.fill('input[name="email"]', user.email);
      await page.click('#roles');
      await page.getByRole('option', { name: user.role }).click();
      // A click outside closes the role list (the page under it takes no pointer events while it is open).
      await page.locator('#roles').click({ force: true });
      await page.waitForSelector('[role="listbox"]', { state: 'detached', ...WAIT });
      await page.getByRole('button', { name: 'Invite user' }).click();
      // The link is shown shortened; the page's copy button copies it whole.
      await page.waitForSelector('text=Copy and share this link to give access to this user', WAIT);
      await page.getByRole('button', { name: 'Copy to clipboard' }).click();
      await page.waitForSelector('text=Link copied into the clipboard', WAIT);
      invitations.set(user.email, String(await page.evaluate('navigator.clipboard.readText()')));
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.waitForSelector(`text=${user.email}`, WAIT);
    }
  });

  it('stores each invitation as Strapi does: an inactive user with its role and a one-time link', async () => {
    for (const user of INVITED) {
      const stored = await app.app.db.query(USER_UID).findOne({ where: { email: user.email }, select: ['id', 'isActive', 'registrationToken', 'firstname'] });
      expect([stored?.isActive, stored?.firstname]).to.deep.equal([false, user.firstname]);
      expect(invitations.get(user.email)).to.equal(`${app.url}/admin/auth/register?registrationToken=${stored?.registrationToken}`);
      const roles = await app.app.db.query(ROLE_UID).findMany({ where: { users: { id: stored!.id } }, select: ['code'] });
      expect(roles.map((role) => role.code)).to.deep.equal([user.code]);
    }
  });

  for (const [index, user] of INVITED.entries()) {
    it(`the ${user.role} opens the invitation link, sets a password, logs out and in, and sees what its permissions allow`, async function () {
      this.timeout(120_000);
      await openUserMenu(index === 0 ? 'Augusta Lovelace' : `${INVITED[index - 1].firstname} ${INVITED[index - 1].lastname}`);
      await page.getByText('Logout', { exact: true }).click();
      await page.waitForSelector('input[name="email"]', WAIT);
      await page.goto(invitations.get(user.email)!);
      await page.waitForSelector('input[name="confirmPassword"]', WAIT);
      // The invitation's names and email come from registration-info.
      expect(await filledValue(page, 'input[name="firstname"]')).to.equal(user.firstname);
      expect(await filledValue(page, 'input[name="email"]')).to.equal(user.email);
      await page.fill('input[name="password"]', user.password);
      await page.fill('input[name="confirmPassword"]', user.password);
      await page.click('button[type="submit"]');
      await page.waitForSelector(`nav button:has-text("${user.firstname} ${user.lastname}")`, WAIT);
      const stored = await app.app.db.query(USER_UID).findOne({ where: { email: user.email }, select: ['isActive', 'registrationToken'] });
      expect([stored?.isActive, stored?.registrationToken]).to.deep.equal([true, null]);
      await openUserMenu(`${user.firstname} ${user.lastname}`);
      await page.getByText('Logout', { exact: true }).click();
      await page.waitForSelector('input[name="email"]', WAIT);
      await page.fill('input[name="email"]', user.email);
      await page.fill('input[name="password"]', user.password);
      await page.click('button[type="submit"]');
      await page.waitForSelector(`nav button:has-text("${user.firstname} ${user.lastname}")`, WAIT);
      // What the panel shows follows /admin/users/me/permissions: neither default role holds admin::users.read, so the
      // Users page sends them home, and the API refuses them the list.
      const login = await app.post('/admin/login', { email: user.email, password: user.password });
      const permissions = (await app.get('/admin/users/me/permissions', { token: login.body.data.token })).body.data as Array<{ action: string }>;
      expect(permissions.some((permission) => permission.action.startsWith('admin::users.'))).to.equal(false);
      // Strapi's default roles: an Editor edits and publishes every entry, an Author only what it created.
      const explorer = permissions.filter((permission) => permission.action.startsWith('plugin::content-manager.explorer.'));
      expect(explorer.length).to.be.greaterThan(0);
      const conditions = [...new Set(explorer.map((permission) => JSON.stringify((permission as { conditions?: unknown }).conditions)))];
      expect(conditions).to.deep.equal([user.code === 'strapi-author' ? '["admin::is-creator"]' : '[]']);
      // The menu follows them: the media library shows for a role holding plugin::upload.read.
      const menu = (await page.locator('nav a').allTextContents()).map((text) => text.trim());
      expect(menu.includes('Media Library')).to.equal(permissions.some((permission) => permission.action === 'plugin::upload.read'));
      await page.goto(`${app.url}/admin/settings/users`);
      await panelHome(page);
      expect(new URL(page.url()).pathname).to.equal('/admin/');
      expect(await page.getByRole('button', { name: 'Invite new user' }).count()).to.equal(0);
      expect((await app.get('/admin/users', { token: login.body.data.token })).status).to.equal(403);
    });
  }

  it('resets a forgotten password from the login page through the mailed link', async function () {
    this.timeout(120_000);
    const [editor, author] = INVITED;
    await openUserMenu(`${author.firstname} ${author.lastname}`);
    await page.getByText('Logout', { exact: true }).click();
    await page.getByText('Forgot your password?', { exact: true }).click();
    await page.fill('input[name="email"]', editor.email);
    const mailsBefore = smtp.mails.length;
    await page.click('button:has-text("Send Email")');
    await page.waitForSelector('text=Email sent', WAIT);
    const mail = await smtp.next(editor.email, mailsBefore);
    expect(mail.raw).to.match(/^Subject: Reset password/m);
    const code = /\/admin\/auth\/reset-password\?code=([0-9a-f]{40})/.exec(mail.text)![1];
    await page.goto(`${app.url}/admin/auth/reset-password?code=${code}`);
    await page.fill('input[name="password"]', 'Changed123');
    await page.fill('input[name="confirmPassword"]', 'Changed123');
    await page.click('button:has-text("Change password")');
    await page.waitForSelector(`nav button:has-text("${editor.firstname} ${editor.lastname}")`, WAIT);
    expect((await app.post('/admin/login', { email: editor.email, password: editor.password })).status).to.equal(400);
    expect((await app.post('/admin/login', { email: editor.email, password: 'Changed123' })).status).to.equal(200);
  });

  it('ran without a page error and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});

/**
 * Strapi 4.26.2's real admin panel in Debian's Chromium (playwright-core),
 * served by Tessera from a fresh example app, every other host cut off: the
 * first admin registers, logs out, is refused with a wrong password (the
 * panel's own message), logs in, and edits the profile. Each effect is checked
 * on the server too. The panel is built once per run (panel-build.ts); without
 * Chromium or @strapi/admin the test says why and skips (under CI, Chromium
 * missing fails).
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { EXAMPLE_APP, startApp, type TestApp } from '@tessera/testing';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { EXAMPLE_PACKAGE, panelInto, panelUnavailable, ROOT_NODE_MODULES } from './panel-build';

const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium';
const ADA = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };

describe('admin panel in Chromium: first admin, log out and in, profile [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const blocked: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    const reason = panelUnavailable() ?? (fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (apt-get install -y chromium)`);
    if (reason) {
      if (process.env.CI === 'true' && !fs.existsSync(CHROMIUM)) throw new Error(reason);
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, files: { 'package.json': EXAMPLE_PACKAGE }, nodeModules: ROOT_NODE_MODULES });
    await panelInto(app.dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'] });
    context = await browser.newContext();
    // Only the app answers: the panel must ask nothing of another host (update check, telemetry, fonts).
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith(app.url)) return route.continue();
      blocked.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
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
    await page.waitForSelector('h1:has-text("Welcome")', WAIT);
    const admins = await app.app.db.query(USER_UID).findMany({ select: ['id', 'email', 'firstname'] });
    expect(admins.map(({ email, firstname }) => ({ email, firstname }))).to.deep.equal([{ email: ADA.email, firstname: 'Ada' }]);
    const roles = await app.app.db.query(ROLE_UID).findMany({ where: { users: { id: admins[0].id } }, select: ['code'] });
    expect(roles.map((role) => role.code)).to.deep.equal(['strapi-super-admin']);
  });

  it('logs out from the user menu, back to the login page', async function () {
    this.timeout(60_000);
    await openUserMenu('Ada Lovelace');
    await page.getByText('Logout', { exact: true }).click();
    await page.waitForSelector('input[name="email"]', WAIT);
    expect(new URL(page.url()).pathname).to.equal('/admin/auth/login');
  });

  it('refuses a wrong password with the panel message, then logs in', async function () {
    this.timeout(60_000);
    await page.fill('input[name="email"]', ADA.email);
    await page.fill('input[name="password"]', 'Wrong1234');
    await page.click('button[type="submit"]');
    await page.waitForSelector('text=Invalid credentials', WAIT);
    expect(new URL(page.url()).pathname).to.equal('/admin/auth/login');
    await page.fill('input[name="password"]', ADA.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('h1:has-text("Welcome")', WAIT);
  });

  it('edits the profile: the new first name is saved on the server', async function () {
    this.timeout(60_000);
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

  it('ran without a page error and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});

/**
 * Published plugins' admin sides in Strapi 4.26.2's real panel (admin-sides/app.ts: the color picker's custom
 * field, navigation's plugin page, config-sync's settings page), installed from npm at pinned versions in one
 * install beside `@strapi/admin`: `tessera build` builds them into the panel (one build per run, kept in the
 * shared panel cache under its own key), Chromium opens the pages (every other host cut off), the custom field's
 * input saves a value (read back through REST), the settings page's action writes through the plugin's admin route,
 * and (on SQLite, PostgreSQL and MariaDB) the plugins' admin routes answer a signed-in admin and refuse an anonymous
 * caller (401) and an admin without the plugin's permission (403). Skips, saying why, without the npm registry or
 * Chromium.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Browser, type Page } from 'playwright-core';
import { eachDatabase, registryUnreachable, chromiumMissing, openBrowser, type TestApp } from '@tessera/testing';
import { preparePanel } from '../../../packages/cli/src/panel';
import { panelInto } from '../../../plugins/admin/test/panel-build';
import { ADA, PLUGINS_WITH_ADMIN, startAdminSidesApp } from './admin-sides/app';

const WAIT = { timeout: 90_000 };

describe("Strapi ecosystem: published plugins' admin sides in the panel [sqlite]", function () {
  this.timeout(15 * 60_000);
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const syncDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-sides-sync-'));
  const blocked: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    const reason = registryUnreachable() ?? chromiumMissing();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    ({ app } = await startAdminSidesApp('sqlite', syncDir));
    await panelInto(app.dir, undefined, app.app.config.get<Record<string, unknown>>('plugins') ?? {});

    ({ browser, page } = await openBrowser(app.url, { blocked, pageErrors }));
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    fs.rmSync(syncDir, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    const file = path.join(os.tmpdir(), `plugin-admin-sides-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    console.log(`      page ${page.url()} (screenshot ${file}): ${(await page.textContent('body').catch(() => ''))?.slice(0, 600)}`);
  });

  it("builds the three plugins' admin sides into the panel", () => {
    const stamp = JSON.parse(fs.readFileSync(path.join(app.dir, 'build', '.tessera-build.json'), 'utf8')) as { plugins: Array<[string, string]> };
    expect(Object.fromEntries(stamp.plugins)).to.include({
      'color-picker': '@strapi/plugin-color-picker@4.26.2',
      navigation: 'strapi-plugin-navigation@2.5.6',
      'config-sync': 'strapi-plugin-config-sync@1.2.6',
      'users-permissions': '@strapi/plugin-users-permissions@4.26.2',
    });
    expect(stamp.plugins.map(([name]) => name).sort()).to.deep.equal([...PLUGINS_WITH_ADMIN].sort());
    // Their code is in the built chunks: each plugin's own strings (the picker's input label, navigation's and
    // config-sync's page headers from their translations).
    const built = fs.readdirSync(path.join(app.dir, 'build')).filter((file) => file.endsWith('.js')).map((file) => fs.readFileSync(path.join(app.dir, 'build', file), 'utf8')).join('\n');
    for (const text of ['Color picker input', 'Manage your database config across environments.', 'Create consumable navigation with a simple and straightforward visual builder']) {
      expect(built.includes(text), text).to.equal(true);
    }
  });

  it("is fresh for `tessera develop`: the CLI, reading the app's config/plugins itself, finds the same plugins and versions", async () => {
    const lines: string[] = [];
    expect(await preparePanel(app.dir, (line) => lines.push(line))).to.equal('fresh');
    expect(lines).to.deep.equal([]);
  });

  it('signs in to the panel', async () => {
    await page.goto(`${app.url}/admin/auth/login`);
    await page.waitForSelector('input[name="email"]', WAIT);
    await page.fill('input[name="email"]', ADA.email);
    await page.fill('input[name="password"]', ADA.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('h1:has-text("Welcome")', WAIT);
  });

  it("shows the color picker's input in the content manager's edit view, and saves its value", async () => {
    await page.goto(`${app.url}/admin/content-manager/collection-types/api::palette.palette/create`);
    await page.waitForSelector('button[aria-label="Color picker toggle"]', WAIT);
    await page.fill('input[name="name"]', 'Ocean');
    await page.click('button[aria-label="Color picker toggle"]');
    await page.fill('input[aria-label="Color picker input"]', '#1E90FF');
    await page.keyboard.press('Escape');
    await page.click('button:has-text("Save")');
    await page.waitForSelector('text=Saved', WAIT);
    const rest = await app.get('/api/palettes', { token: await app.fullAccessToken() });
    expect(rest.status).to.equal(200);
    expect(rest.body.data.map((entry: { attributes: Record<string, unknown> }) => [entry.attributes.name, entry.attributes.accent])).to.deep.equal([['Ocean', '#1E90FF']]);
  });

  it("opens navigation's plugin page from the menu, with the navigation its admin route answers", async () => {
    await page.goto(`${app.url}/admin`);
    await page.click('nav a:has-text("UI Navigation")');
    await page.waitForSelector('text=Your navigation is empty', WAIT);
    expect(new URL(page.url()).pathname).to.equal('/admin/plugins/navigation');
    await page.waitForSelector('text=ID: 1, slug: main-navigation', WAIT);
  });

  it("opens config-sync's settings page: its diff view lists what differs, and its export writes the files through its admin route", async () => {
    await page.goto(`${app.url}/admin`);
    await page.click('nav a:has-text("Settings")');
    await page.click('a:has-text("Interface")');
    expect(new URL(page.url()).pathname).to.equal('/admin/settings/config-sync');
    await page.waitForSelector('text=Manage your database config across environments.', WAIT);
    // The sync folder is empty: every config row of the database is "Only in DB", the users-permissions roles among them.
    await page.waitForSelector('text=config changes', WAIT);
    await page.waitForSelector('text=plugin_users-permissions_advanced', WAIT);
    expect(fs.readdirSync(syncDir)).to.deep.equal([]);
    const exported = page.waitForResponse((response) => new URL(response.url()).pathname === '/config-sync/export', WAIT);
    await page.click('button:has-text("Export")');
    await page.click('button:has-text("Yes, export")');
    expect((await exported).status()).to.equal(200);
    await page.waitForSelector('text=No differences between DB and sync directory. You are up-to-date!', WAIT);
    expect(fs.readdirSync(syncDir)).to.include.members(['core-store.plugin_users-permissions_advanced.json', 'user-role.public.json', 'user-role.authenticated.json']);
  });

  it('asked nothing of another host, and threw nothing in the page', () => {
    expect(blocked).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});

eachDatabase("Strapi ecosystem: published plugins' admin routes", (dialect) => {
  let app: TestApp;
  let tokens: { superAdmin: string; author: string };
  const syncDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-sides-routes-'));

  before(async function () {
    this.timeout(10 * 60_000);
    const reason = registryUnreachable();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    ({ app, tokens } = await startAdminSidesApp(dialect, syncDir));
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(syncDir, { recursive: true, force: true });
  });

  it("answers the plugins' admin routes to an admin, 401 to nobody and 403 to an admin without the permission", async () => {
    const navigation = await app.get('/navigation/', { token: tokens.superAdmin });
    expect(navigation.status, JSON.stringify(navigation.body)).to.equal(200);
    expect((navigation.body as Array<{ name: string }>).map((item) => item.name)).to.deep.equal(['Main navigation']);
    const anonymous = await app.get('/navigation/');
    expect([anonymous.status, anonymous.body.error]).to.deep.equal([401, { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} }]);
    const author = await app.get('/navigation/', { token: tokens.author });
    expect([author.status, author.body.error]).to.deep.equal([403, { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} }]);
    // config-sync's routes declare no policy: any signed-in admin, nobody else.
    const env = await app.get('/config-sync/app-env', { token: tokens.author });
    expect(env.status, JSON.stringify(env.body)).to.equal(200);
    expect((await app.get('/config-sync/app-env')).status).to.equal(401);
  });
});

/**
 * The panel's API-token and webhook pages in Chromium (Strapi 4.26.2's real
 * panel, served by Tessera from the example app, every other host cut off):
 * a read-only token made in the panel reads and cannot write, and its
 * regeneration retires the old value; a webhook made in the panel to a local
 * receiver (loopback allowed: `refusePrivateAddresses` off) is triggered from
 * the panel, then a REST create reaches it too. A new menu logo saved on Settings → Overview is stored, served and
 * shown in the menu.
 */
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { EXAMPLE_APP, startApp, WebhookReceiver, openBrowser, type TestApp } from '@tessera/testing';
import { EXAMPLE_PACKAGE, panelInto, ROOT_NODE_MODULES, signInToPanel, skipUnlessPanelRuns } from './panel-build';

const ADMIN = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };
const KEY = /\b[0-9a-f]{256}\b/;

describe('admin panel in Chromium: API tokens and webhooks [sqlite]', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let firstKey: string;
  let jwt: string;
  const blocked: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    receiver = await WebhookReceiver.start();
    app = await startApp({
      dialect: 'sqlite',
      from: EXAMPLE_APP,
      files: { 'package.json': EXAMPLE_PACKAGE },
      nodeModules: ROOT_NODE_MODULES,
      config: { server: { webhooks: { refusePrivateAddresses: false, delivery: { pollIntervalMs: 50 } } } },
    });
    await panelInto(app.dir);
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors }));
    const registered = await app.post('/admin/register-admin', ADMIN);
    expect(registered.status).to.equal(200);
    jwt = registered.body.data.token;
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await receiver?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && process.env.TESSERA_SCREENSHOTS) await page?.screenshot({ path: `${process.env.TESSERA_SCREENSHOTS}/${this.currentTest.title.slice(0, 20)}.png` });
  });

  /** The access key the page shows once. */
  const shownKey = async (): Promise<string> => {
    const shown = page.getByText(KEY).first();
    await shown.waitFor(WAIT);
    return KEY.exec(await shown.innerText())![0];
  };

  it('logs in', async function () {
    this.timeout(120_000);
    await signInToPanel(page, app.url, ADMIN);
  });

  it('creates a read-only API token; its value reads and cannot write', async function () {
    this.timeout(120_000);
    await page.goto(`${app.url}/admin/settings/api-tokens/create`);
    await page.waitForSelector('input[name="name"]', WAIT);
    await page.fill('input[name="name"]', 'panel-reader');
    await page.getByLabel('Description').fill('made in the panel');
    await page.getByLabel('Token duration').click();
    await page.getByRole('option', { name: '7 days' }).click();
    await page.getByLabel('Token type').click();
    await page.getByRole('option', { name: 'Read-only' }).click();
    await page.click('button:has-text("Save")');
    firstKey = await shownKey();
    const reads = await app.get('/api/articles', { token: firstKey });
    expect(reads.status).to.equal(200);
    const writes = await app.post('/api/articles', { data: { title: 'no' } }, { token: firstKey });
    expect([writes.status, writes.body.error.name]).to.deep.equal([403, 'ForbiddenError']);
    const [token] = (await app.app.apiTokens.list()).filter((item) => item.name === 'panel-reader');
    expect(token).to.deep.include({ type: 'read-only', description: 'made in the panel' });
    expect(Date.parse(token!.expiresAt!) - Date.parse(token!.createdAt!)).to.be.within(7 * 86_400_000 - 100, 7 * 86_400_000 + 100);
  });

  it('regenerates it: the new value reads, the old one is refused', async function () {
    this.timeout(120_000);
    await page.click('button:has-text("Regenerate")');
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate' }).click();
    await page.getByText(firstKey).waitFor({ state: 'detached', ...WAIT });
    const newKey = await shownKey();
    expect(newKey).to.not.equal(firstKey);
    expect((await app.get('/api/articles', { token: firstKey })).status).to.equal(401);
    expect((await app.get('/api/articles', { token: newKey })).status).to.equal(200);
  });

  it('creates a webhook to a local receiver and triggers it from the panel', async function () {
    this.timeout(120_000);
    // The panel's webhook form lists the content types' events from the content manager's model routes: without them
    // it shows only "Not Found" warnings (not a failure of the webhook routes, which webhooks.test.ts covers).
    const models = await app.get('/content-manager/content-types', { token: jwt });
    if (models.status === 404) {
      console.log('      skipped: the webhook form needs /content-manager/content-types (the content manager, branch cm-layouts)');
      this.skip();
    }
    await page.goto(`${app.url}/admin/settings/webhooks/create`);
    await page.waitForSelector('input[name="name"]', WAIT);
    await page.fill('input[name="name"]', 'local receiver');
    await page.fill('input[name="url"]', receiver.url);
    await page.getByRole('checkbox', { name: 'Select all entries' }).first().click();
    await page.click('button:has-text("Save")');
    await page.waitForURL(/\/admin\/settings\/webhooks\/\d+$/, WAIT);
    const [stored] = await app.app.webhookStore.findWebhooks();
    expect(stored).to.deep.include({ name: 'local receiver', url: receiver.url, isEnabled: true });
    expect(stored!.events).to.include('entry.create');
    await page.click('button:has-text("Trigger")');
    await page.waitForSelector('text=Trigger succeeded', WAIT);
    expect(receiver.requests.map((request) => request.headers['x-strapi-event'])).to.deep.equal(['trigger-test']);
  });

  it('delivers a REST create to that webhook', async function () {
    if ((await app.app.webhookStore.findWebhooks()).length === 0) this.skip();
    const token = await app.fullAccessToken();
    expect((await app.post('/api/categories', { data: { name: 'From REST' } }, { token })).status).to.equal(200);
    const [delivery] = await receiver.waitFor(1, (request) => request.headers['x-strapi-event'] === 'entry.create');
    expect(delivery!.json).to.deep.include({ event: 'entry.create', model: 'category' });
  });

  it('saves a new menu logo from Settings → Overview: stored through the provider, served, and shown in the menu', async function () {
    this.timeout(120_000);
    const logo = path.join(app.dir, 'menu-logo.png');
    await sharp({ create: { width: 120, height: 40, channels: 3, background: '#00f' } }).png().toFile(logo);
    await page.goto(`${app.url}/admin/settings/application-infos`);
    await page.getByRole('region', { name: 'Menu logo' }).getByRole('button', { name: 'Change logo' }).click(WAIT);
    await page.getByRole('dialog', { name: 'Upload logo' }).locator('input[type="file"]').setInputFiles(logo);
    await page.getByRole('button', { name: 'Upload logo' }).click();
    const saved = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/admin/project-settings', WAIT);
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).to.equal(200);
    const { menuLogo } = (await app.get('/admin/init')).body.data as { menuLogo: string };
    expect(menuLogo).to.match(/^\/uploads\/menu_logo_[0-9a-f]{10}\.png$/);
    expect((await app.get(menuLogo)).status).to.equal(200);
    await page.reload();
    await page.waitForSelector(`nav img[src$="${menuLogo}"]`, WAIT);
  });

  it('ran without a page error and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});

/**
 * Settings → Internationalization of Strapi 4.26.2's real admin panel in
 * Chromium, over Tessera: the admin adds a locale from the page's form, and
 * the locale is in the database and in the content API's list, where a
 * localized entry may be created in it.
 *
 * The page is `@strapi/plugin-i18n`'s admin side, in the panel Tessera builds
 * for a localized app that depends on it (content-manager/test/i18n-panel-app.ts,
 * one panel build shared with the content manager's locale journey). Without
 * Chromium or @strapi/admin the test says why and skips (under CI, Chromium
 * missing fails).
 */
import { expect } from 'chai';
import { type Browser, type Page } from 'playwright-core';
import { openBrowser, type TestApp } from '@tessera/testing';
import { signInToPanel, skipUnlessPanelRuns } from '../../admin/test/panel-build';
import { startLocalizedPanelApp } from '../../content-manager/test/i18n-panel-app';

const ADMIN = { firstname: 'Lou', lastname: 'Locale', email: 'lou@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };

describe('Settings → Internationalization in Chromium: add a locale [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let apiToken: string;
  const failed: string[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await startLocalizedPanelApp('locales-browser-secret');
    expect((await app.post('/admin/register-admin', ADMIN)).status).to.equal(200);
    apiToken = await app.fullAccessToken();
    // Requests off the app and page errors are recorded by the shared driver; this journey checks its own failures.
    ({ browser, page } = await openBrowser(app.url, { blocked: [], pageErrors: [] }, { viewport: { width: 1400, height: 1000 } }));
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname.startsWith('/i18n')) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    await signInToPanel(page, app.url, ADMIN);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("lists the app's locales, the default marked and offered no delete", async function () {
    await page.goto(`${app.url}/admin/settings/internationalization`);
    await page.waitForSelector('text=German (de)', WAIT);
    const rows = await page.locator('tbody tr').allInnerTexts();
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()).filter(Boolean).join(' | '))).to.deep.equal([
      '1 | English (en) | Default | Edit a locale',
      '2 | French (fr) | Edit a locale\nDelete a locale',
      '3 | German (de) | Edit a locale\nDelete a locale',
    ]);
  });

  it('adds Italian from the form: stored with this admin as creator, listed by the content API, usable at once', async function () {
    await page.getByRole('button', { name: 'Add new locale' }).click();
    const combo = page.getByRole('dialog').getByRole('combobox', { name: 'Locales' });
    await combo.click();
    await combo.fill('Italian');
    await page.getByRole('option', { name: 'Italian (it)', exact: true }).click();
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page.waitForSelector('tbody >> text=Italian (it)', WAIT);
    const stored = await app.app.db.query('plugin::i18n.locale').findOne({ where: { code: 'it' }, select: ['name', 'createdBy'] });
    expect([stored?.name, stored?.createdBy]).to.deep.equal(['Italian (it)', 1]);
    const listed = await app.get('/api/i18n/locales', { token: apiToken });
    expect(listed.body.map((locale: { code: string; isDefault: boolean }) => `${locale.code}${locale.isDefault ? '*' : ''}`)).to.deep.equal(['en*', 'fr', 'de', 'it']);
    const entry = await app.post('/api/pages', { data: { title: 'Ciao', slug: 'ciao', locale: 'it' } }, { token: apiToken });
    expect([entry.status, entry.body.data.attributes.locale]).to.deep.equal([200, 'it']);
  });

  it('saw no i18n request fail', () => {
    expect(failed).to.deep.equal([]);
  });
});

/**
 * Three more published plugins' admin sides in Strapi 4.26.2's real panel (admin-sides-more/app.ts): the
 * documentation plugin's page and settings page, the seo plugin's page and its panel in the content manager's edit
 * view, and publisher's dates in the edit view. Installed from npm at pinned versions in one install beside
 * `@strapi/admin` (kept between runs, keyed by its list), built into the panel once (the shared panel cache, under
 * its own key). In Chromium (every other host cut off) each plugin's page or panel does what an editor does, and the
 * effect is read back from the server: the generated document's file, the documentation's stored settings and
 * its page turned private, the seo settings its admin route answers, publisher's action row. On SQLite, PostgreSQL
 * and MariaDB, the plugins' admin routes answer a signed-in admin, 401 to nobody and, behind
 * `admin::hasPermissions`, 403 to an admin without the action. Skips, saying why, without the npm registry or Chromium.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Browser, type Page } from 'playwright-core';
import { eachDatabase, registryUnreachable, chromiumMissing, openBrowser, panelHome, type TestApp } from '@tessera/testing';
import { panelInto, saveEntry } from '../../../plugins/admin/test/panel-build';
import { ADA, MORE_PLUGINS_WITH_ADMIN, startMoreAdminSidesApp } from './admin-sides-more/app';

const WAIT = { timeout: 90_000 };
const ARTICLE = 'api::article.article';

/** The OpenAPI document the documentation plugin writes at boot and on "Regenerate". */
function generatedDocument(app: TestApp): { info: { 'x-generation-date': string }; paths: Record<string, unknown> } {
  const file = path.join(app.dir, 'src/extensions/documentation/documentation/1.0.0/full_documentation.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as { info: { 'x-generation-date': string }; paths: Record<string, unknown> };
}

/** A date's day in the machine's time zone (the browser's): `2026-12-15`. */
function localDay(date: string | Date): string {
  const day = new Date(date);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

describe("Strapi ecosystem: more published plugins' admin sides in the panel [sqlite]", function () {
  this.timeout(15 * 60_000);
  let app: TestApp;
  let tokens: { superAdmin: string; author: string };
  let browser: Browser;
  let page: Page;
  const blocked: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    const reason = registryUnreachable() ?? chromiumMissing();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    ({ app, tokens } = await startMoreAdminSidesApp('sqlite'));
    await panelInto(app.dir, undefined, app.app.config.get<Record<string, unknown>>('plugins') ?? {});
    ({ browser, page } = await openBrowser(app.url, { blocked, pageErrors }));
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    const file = path.join(os.tmpdir(), `plugin-admin-sides-more-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    console.log(`      page ${page.url()} (screenshot ${file}): ${(await page.textContent('body').catch(() => ''))?.slice(0, 600)}`);
  });

  it("builds the three plugins' admin sides into the panel", () => {
    const stamp = JSON.parse(fs.readFileSync(path.join(app.dir, 'build', '.tessera-build.json'), 'utf8')) as { plugins: Array<[string, string]> };
    expect(Object.fromEntries(stamp.plugins)).to.include({
      documentation: '@strapi/plugin-documentation@4.26.2',
      seo: '@strapi/plugin-seo@1.9.9',
      publisher: 'strapi-plugin-publisher@1.5.9',
    });
    expect(stamp.plugins.map(([name]) => name).sort()).to.deep.equal([...MORE_PLUGINS_WITH_ADMIN].sort());
  });

  it('signs in to the panel', async () => {
    await page.goto(`${app.url}/admin/auth/login`);
    await page.waitForSelector('input[name="email"]', WAIT);
    await page.fill('input[name="email"]', ADA.email);
    await page.fill('input[name="password"]', ADA.password);
    await page.click('button[type="submit"]');
    await panelHome(page);
  });

  it("opens the documentation's page from the menu, links its version's Swagger page, and regenerates the document", async () => {
    const before = generatedDocument(app).info['x-generation-date'];
    await page.goto(`${app.url}/admin`);
    await page.click('nav a:has-text("Documentation")');
    expect(new URL(page.url()).pathname).to.equal('/admin/plugins/documentation');
    await page.waitForSelector('text=Open documentation', WAIT);
    expect(await page.getAttribute('a:has-text("Open documentation")', 'href')).to.equal(`${app.url}/documentation/v1.0.0`);
    await page.waitForSelector('td:has-text("1.0.0")', WAIT);
    const regenerated = page.waitForResponse((response) => new URL(response.url()).pathname === '/documentation/regenerateDoc', WAIT);
    await page.getByRole('button', { name: 'Regenerate 1.0.0' }).click();
    const answer = await regenerated;
    expect([answer.status(), answer.request().postDataJSON()]).to.deep.equal([200, { version: '1.0.0' }]);
    await page.waitForSelector('text=Doc generated', WAIT);
    // The document was written again: a later generation date, the app's routes still in it.
    const after = generatedDocument(app);
    expect(Date.parse(after.info['x-generation-date'])).to.be.greaterThan(Date.parse(before));
    expect(Object.keys(after.paths)).to.include.members(['/articles', '/articles/{id}']);
  });

  it("turns the documentation private from its settings page: its admin route and its public page say so", async () => {
    expect((await app.get('/documentation/v1.0.0')).status).to.equal(200);
    await page.goto(`${app.url}/admin/settings/documentation`);
    await page.waitForSelector('text=Restricted Access', WAIT);
    await page.click('[role="switch"], input[name="restrictedAccess"]');
    await page.fill('input[name="password"]', 'Swagger123');
    const updated = page.waitForResponse((response) => new URL(response.url()).pathname === '/documentation/updateSettings', WAIT);
    await page.click('button[type="submit"]:has-text("Save")');
    expect((await updated).status()).to.equal(200);
    await page.waitForSelector('text=Settings updated successfully', WAIT);
    const infos = await app.get('/documentation/getInfos', { token: tokens.superAdmin });
    expect(infos.body.documentationAccess).to.deep.equal({ restrictedAccess: true });
    // Its page now sends an anonymous reader to its login form; the password signs the reader in (a session
    // cookie), a wrong one back to the form.
    const anonymous = await fetch(`${app.url}/documentation/v1.0.0`, { redirect: 'manual' });
    expect([anonymous.status, anonymous.headers.get('location')]).to.deep.equal([302, '/documentation/login']);
    const login = (password: string): Promise<Response> => fetch(`${app.url}/documentation/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
    const wrong = await login('Nope12345');
    expect([wrong.status, wrong.headers.get('location'), wrong.headers.get('set-cookie')]).to.deep.equal([302, '/documentation?error=password', null]);
    const right = await login('Swagger123');
    expect([right.status, right.headers.get('location')]).to.deep.equal([302, '/documentation']);
    const cookie = (right.headers.get('set-cookie') || '').split(';')[0];
    expect(cookie).to.match(/^koa\.sess=/);
    const reader = await fetch(`${app.url}/documentation/v1.0.0`, { redirect: 'manual', headers: { cookie } });
    expect(reader.status).to.equal(200);
    expect(await reader.text()).to.include('SwaggerUIBundle');
  });

  it("opens the seo page from the menu and turns a check off for the article type, as its admin route answers", async () => {
    await page.goto(`${app.url}/admin`);
    await page.click('nav a:has-text("SEO")');
    expect(new URL(page.url()).pathname).to.equal('/admin/plugins/seo');
    await page.waitForSelector('text=Optimize your content to be SEO friendly', WAIT);
    await page.locator('tr', { hasText: 'Article' }).locator('button:has-text("Settings")').click();
    const wordCount = page.locator('div:has(> span:text-is("Word Count")) [role="switch"]');
    await wordCount.click();
    const saved = page.waitForResponse((response) => new URL(response.url()).pathname === '/seo/settings' && response.request().method() === 'POST', WAIT);
    await page.click('button:has-text("Save")');
    expect((await saved).status()).to.equal(200);
    const settings = await app.get('/seo/settings', { token: tokens.superAdmin });
    expect(settings.body[ARTICLE]).to.deep.equal({
      collectionName: 'article',
      seoChecks: { metaTitle: true, metaDescription: true, metaRobots: true, metaSocial: true, wordCount: false, canonicalUrl: true, keywordDensity: true, structuredData: true, alternativeText: true, lastUpdatedAt: true },
    });
  });

  it("shows the seo panel in an article's edit view, previewing the meta title typed in its component", async () => {
    await page.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/create`);
    await page.fill('input[name="title"]', 'Tides', WAIT);
    // The panel shows once the article has its seo component.
    await page.getByRole('button', { name: /No entry yet/ }).click();
    await page.waitForSelector('text=SEO Plugin', WAIT);
    await page.fill('input[name="seo.metaTitle"]', 'Tides and the moon');
    await page.fill('input[name="seo.metaDescription"]', 'How the moon and the sun pull the oceans, twice a day, everywhere.');
    await page.click('button:has-text("Browser Preview")');
    await page.waitForSelector('[role="dialog"] >> text=Tides and the moon', WAIT);
    await page.keyboard.press('Escape');
    expect((await saveEntry(page, ARTICLE)).status()).to.equal(200);
    const rest = await app.get('/api/articles?publicationState=preview&populate=seo', { token: await app.fullAccessToken() });
    expect(rest.body.data.map((entry: { attributes: { title: string; seo: { metaTitle: string } } }) => [entry.attributes.title, entry.attributes.seo.metaTitle])).to.deep.equal([['Tides', 'Tides and the moon']]);
  });

  it("sets a publish date from publisher's panel in the edit view: its action row is stored", async () => {
    const due = new Date();
    due.setDate(15);
    due.setFullYear(due.getFullYear() + 1);
    const article = (await app.get('/api/articles?publicationState=preview', { token: await app.fullAccessToken() })).body.data[0] as { id: number };
    await page.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.id}`);
    await page.waitForSelector('text=Publisher', WAIT);
    await page.click('button:has-text("Publish date")');
    const picker = page.locator('#action-date-time-picker');
    await picker.locator('input').first().click();
    // The 15th of this month next year, from the picker's calendar.
    await page.click('[role="dialog"][aria-label="Choose date"] [aria-label="Year"]');
    await page.getByRole('option', { name: String(due.getFullYear()) }).click();
    await page.locator('[role="dialog"][aria-label="Choose date"] td[role="gridcell"]:has-text("15")').first().click();
    const created = page.waitForResponse((response) => new URL(response.url()).pathname === '/publisher/actions' && response.request().method() === 'POST', WAIT);
    await page.click('button:has-text("Save"):near(#action-date-time-picker)');
    expect((await created).status()).to.equal(200);
    await page.waitForSelector('text=Publish action created successfully', WAIT);
    const actions = await app.get('/publisher/actions', { token: tokens.superAdmin });
    expect(actions.body.data.map((action: { attributes: { mode: string; entityId: number; entitySlug: string; executeAt: string } }) => [action.attributes.mode, action.attributes.entityId, action.attributes.entitySlug, localDay(action.attributes.executeAt)])).to.deep.equal([['publish', article.id, ARTICLE, localDay(due)]]);
  });

  it('asked nothing of another host, and threw nothing in the page', () => {
    expect(blocked).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});

eachDatabase("Strapi ecosystem: more published plugins' admin routes", (dialect) => {
  let app: TestApp;
  let tokens: { superAdmin: string; author: string };

  before(async function () {
    this.timeout(10 * 60_000);
    const reason = registryUnreachable();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    ({ app, tokens } = await startMoreAdminSidesApp(dialect));
  });
  after(async () => {
    await app?.stop();
  });

  it("answers the plugins' admin routes to an admin, 401 to nobody and 403 to an admin without the permission", async () => {
    const unauthorized = { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} };
    const forbidden = { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} };
    // documentation: behind admin::hasPermissions (plugin::documentation.read, .settings.regenerate).
    const infos = await app.get('/documentation/getInfos', { token: tokens.superAdmin });
    expect(infos.status, JSON.stringify(infos.body)).to.equal(200);
    expect([infos.body.currentVersion, infos.body.prefix, infos.body.docVersions.map((doc: { version: string }) => doc.version), infos.body.documentationAccess]).to.deep.equal(['1.0.0', '/documentation', ['1.0.0'], { restrictedAccess: false }]);
    const anonymous = await app.get('/documentation/getInfos');
    expect([anonymous.status, anonymous.body.error]).to.deep.equal([401, unauthorized]);
    const author = await app.get('/documentation/getInfos', { token: tokens.author });
    expect([author.status, author.body.error]).to.deep.equal([403, forbidden]);
    const regenerate = await app.post('/documentation/regenerateDoc', { version: '1.0.0' }, { token: tokens.author });
    expect([regenerate.status, regenerate.body.error]).to.deep.equal([403, forbidden]);
    // seo and publisher declare no policy: any signed-in admin, nobody else.
    const contentTypes = await app.get('/seo/content-types', { token: tokens.author });
    expect(contentTypes.status, JSON.stringify(contentTypes.body)).to.equal(200);
    expect(contentTypes.body.collectionTypes.map((type: { uid: string; seo: boolean }) => [type.uid, type.seo])).to.deep.equal([[ARTICLE, true]]);
    expect(Object.keys((await app.get('/seo/settings', { token: tokens.superAdmin })).body)).to.deep.equal([ARTICLE]);
    expect((await app.get('/seo/settings')).status).to.equal(401);
    const actions = await app.get('/publisher/actions', { token: tokens.author });
    expect([actions.status, actions.body.data]).to.deep.equal([200, []]);
    expect((await app.get('/publisher/actions')).status).to.equal(401);
  });
});

/**
 * Every scalar field kind of the example app's Article filled in Strapi 4.26.2's real admin panel (Chromium,
 * playwright-core), every other host cut off: the title with the slug the field's Regenerate makes of it (the uid route),
 * the rich text, a text, the boolean, an integer, a decimal, a date from the date picker's input, an enumeration
 * chosen from its list and JSON typed in the JSON editor. The saved entry is read back through the content API
 * (REST, a full-access token) with the exact values, then edited again in the panel and read again.
 */
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openBrowser, type TestApp, filledValue } from '@tessera/testing';
import { saveEntry, signInToPanel, skipUnlessPanelRuns, startPanelApp } from '../../admin/test/panel-build';

const EDITOR = { firstname: 'Sam', lastname: 'Scalar', email: 'sam@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };
const ARTICLES = '/admin/content-manager/collection-types/api::article.article';

describe('content manager in Chromium: every scalar field of an article [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiToken: string;
  let articleId = 0;
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const failed: string[] = [];

  /** The article as the content API reads it, drafts included. */
  async function restArticle(): Promise<Record<string, unknown>> {
    const response = await app.get(`/api/articles/${articleId}?publicationState=preview`, { token: apiToken });
    expect(response.status).to.equal(200);
    return response.body.data.attributes;
  }

  /** Saves the form; the entry's id. */
  async function save(): Promise<number> {
    const response = await saveEntry(page, 'api::article.article');
    expect(response.status(), await response.text()).to.equal(200);
    return Number(((await response.json()) as { id: number }).id);
  }

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await startPanelApp();
    expect((await app.post('/admin/register-admin', EDITOR)).status).to.equal(200);
    apiToken = await app.fullAccessToken();
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors, failed }, { viewport: { width: 1400, height: 1200 } }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  it('creates an article with every scalar field filled from the panel; REST answers each value', async function () {
    this.timeout(180_000);
    await signInToPanel(page, app.url, EDITOR);
    await page.goto(`${app.url}${ARTICLES}/create`);
    await page.waitForSelector('input[name="title"]', WAIT);
    await page.fill('input[name="title"]', 'Every Field Here');
    // The slug (not required, so not generated on its own) from the field's Regenerate: the uid route's free value.
    const generated = page.waitForResponse((response) => new URL(response.url()).pathname === '/content-manager/uid/generate', WAIT);
    await page.getByRole('button', { name: 'Regenerate' }).click();
    expect((await generated).status()).to.equal(200);
    expect(await filledValue(page, 'input[name="slug"]')).to.equal('every-field-here');
    await page.fill('textarea#summary', 'A short summary');
    await page.getByRole('checkbox', { name: 'featured' }).click();
    await page.fill('input[name="views"]', '42');
    await page.fill('input[name="rating"]', '4.5');
    // Typed into the date picker's input (Enter there would submit the form): the picker reads it on blur.
    await page.getByRole('combobox', { name: 'publishDate' }).fill('03/14/2026');
    await page.getByRole('combobox', { name: 'publishDate' }).press('Tab');
    await page.getByRole('combobox', { name: 'status' }).click();
    await page.getByRole('option', { name: 'approved' }).click();
    // The JSON editor (CodeMirror): typed into its content, which keeps what it is given.
    const json = page.locator('.cm-content').first();
    await json.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"pages":12,"tags":["a","b"]}');
    articleId = await save();
    const saved = await restArticle();
    expect({
      title: saved.title,
      slug: saved.slug,
      summary: saved.summary,
      featured: saved.featured,
      views: saved.views,
      rating: saved.rating,
      publishDate: saved.publishDate,
      status: saved.status,
      meta: saved.meta,
    }).to.deep.equal({
      title: 'Every Field Here',
      slug: 'every-field-here',
      summary: 'A short summary',
      featured: true,
      views: 42,
      rating: 4.5,
      publishDate: '2026-03-14',
      status: 'approved',
      meta: { pages: 12, tags: ['a', 'b'] },
    });
  });

  it('opens it again with each value in its field, changes three, and REST answers the new ones', async function () {
    this.timeout(180_000);
    await page.goto(`${app.url}${ARTICLES}/${articleId}`);
    await page.waitForSelector('input[name="title"]', WAIT);
    expect(await filledValue(page, 'input[name="views"]')).to.equal('42');
    expect(await filledValue(page, 'input[name="rating"]')).to.equal('4.5');
    expect(await filledValue(page, 'textarea#summary')).to.equal('A short summary');
    await page.fill('input[name="views"]', '43');
    await page.getByRole('checkbox', { name: 'featured' }).click();
    await page.getByRole('combobox', { name: 'status' }).click();
    await page.getByRole('option', { name: 'archived' }).click();
    await save();
    const saved = await restArticle();
    expect([saved.views, saved.featured, saved.status, saved.rating]).to.deep.equal([43, false, 'archived', 4.5]);
  });

  it('ran without a page error or a failed request, and asked nothing of another host', () => {
    expect({ pageErrors, failed, blocked: blocked.filter((url) => !url.startsWith('https://api.github.com/')) }).to.deep.equal({ pageErrors: [], failed: [], blocked: [] });
  });
});

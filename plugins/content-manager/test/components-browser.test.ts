/**
 * Components and a dynamic zone edited in Strapi 4.26.2's real admin panel (Chromium, playwright-core) over the
 * example app's Page, every other host cut off: a page made with a single component, a repeatable one, two
 * dynamic-zone blocks and its private notes (shown to editors again, never to the content API); the blocks re-ordered from the keyboard, as the panel offers; one block deleted. After each
 * save the page is read back through the content API (REST, a full-access token) and the component tables.
 */
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openBrowser, type TestApp, filledValue } from '@tessera/testing';
import { saveEntry, signInToPanel, skipUnlessPanelRuns, startPanelApp } from '../../admin/test/panel-build';

const EDITOR = { firstname: 'Eve', lastname: 'Editor', email: 'eve@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };
const PAGES = '/admin/content-manager/collection-types/api::page.page';

interface Block {
  __component: string;
  text?: string;
  author?: string;
  body?: string;
}

describe('content manager in Chromium: components and a dynamic zone [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiToken: string;
  let pageId = 0;
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const failed: string[] = [];

  /** The page as the content API reads it, drafts included, with its components and dynamic zone. */
  async function restPage(): Promise<{ seo: { metaTitle: string } | null; links: Array<{ label: string; url: string; newTab: boolean }>; content: Block[] }> {
    const response = await app.get(`/api/pages/${pageId}?publicationState=preview&populate[seo]=true&populate[links]=true&populate[content]=true`, { token: apiToken });
    expect(response.status).to.equal(200);
    return response.body.data.attributes;
  }
  const blocksOf = (content: Block[]) => content.map(({ __component, text, author, body }) => ({ __component, ...(text === undefined ? { body } : { text, author }) }));

  /** Saves the form and waits for the content manager to answer the write. */
  async function save(): Promise<void> {
    expect((await saveEntry(page, 'api::page.page')).status()).to.equal(200);
  }

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await startPanelApp();
    expect((await app.post('/admin/register-admin', EDITOR)).status).to.equal(200);
    apiToken = await app.fullAccessToken();
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors, failed }));
    page.on('dialog', (dialog) => void dialog.accept());
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  it('creates a page with a single component, a repeatable one and two dynamic-zone blocks', async function () {
    this.timeout(180_000);
    await signInToPanel(page, app.url, EDITOR);
    await page.goto(`${app.url}${PAGES}/create`);
    await page.waitForSelector('input[name="title"]', WAIT);
    await page.fill('input[name="title"]', 'Zoned');
    // A private field is the editors' (private keeps it out of the content API only).
    await page.getByRole('textbox', { name: 'notes' }).fill('For editors only');
    // The single component (seo) and the repeatable one (links) start empty: each offers one button to add an entry.
    const empty = page.getByRole('button', { name: 'No entry yet. Click on the button below to add one.' });
    await empty.first().click();
    await page.getByRole('textbox', { name: 'metaTitle' }).fill('Zoned SEO');
    await empty.first().click();
    await page.getByRole('textbox', { name: 'label *' }).fill('Docs');
    await page.getByRole('textbox', { name: 'url *' }).fill('https://example.com/docs');
    await page.getByRole('checkbox', { name: 'newTab' }).click();
    await page.getByRole('button', { name: 'Add a component to content' }).click();
    await page.getByRole('button', { name: /^quote/ }).first().click();
    await page.getByRole('textbox', { name: 'text *' }).fill('Less is more');
    await page.getByRole('region', { name: /^quote/ }).getByRole('textbox', { name: 'author' }).fill('Mies');
    await page.getByRole('button', { name: 'Add a component to content' }).click();
    await page.getByRole('button', { name: /^rich-text/ }).first().click();
    // The rich text editor is CodeMirror: typed into, not filled.
    await page.getByRole('region', { name: 'rich-text' }).locator('.CodeMirror').click();
    await page.keyboard.type('Some **bold** words');
    const created = page.waitForURL(/\/collection-types\/api::page\.page\/\d+$/, WAIT);
    await save();
    await created;
    pageId = Number(/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
    const stored = await restPage();
    expect(stored.seo?.metaTitle).to.equal('Zoned SEO');
    expect(stored.links.map(({ label, url, newTab }) => ({ label, url, newTab }))).to.deep.equal([{ label: 'Docs', url: 'https://example.com/docs', newTab: true }]);
    expect(blocksOf(stored.content)).to.deep.equal([
      { __component: 'shared.quote', text: 'Less is more', author: 'Mies' },
      { __component: 'shared.rich-text', body: 'Some **bold** words' },
    ]);
  });

  it('shows the private notes again when the page is opened anew, and keeps them out of the content API', async function () {
    this.timeout(120_000);
    await page.reload();
    expect(await filledValue(page, 'role=textbox[name="notes"]')).to.equal('For editors only');
    const rest = await app.get(`/api/pages/${pageId}?publicationState=preview`, { token: apiToken });
    expect(rest.body.data.attributes).to.not.have.property('notes');
  });

  it('moves the rich text above the quote from the keyboard, and the saved order follows', async function () {
    this.timeout(120_000);
    // The panel's drag handle: space grabs, an arrow moves, space drops.
    const handle = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Delete rich-text' }) }).getByRole('button', { name: 'Drag' });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    await save();
    expect(blocksOf((await restPage()).content).map((block) => block.__component)).to.deep.equal(['shared.rich-text', 'shared.quote']);
  });

  it('deletes the quote block: the page keeps the rich text alone, and the quote row is gone', async function () {
    this.timeout(120_000);
    await page.getByRole('button', { name: /^Delete quote/ }).click();
    await save();
    expect(blocksOf((await restPage()).content)).to.deep.equal([{ __component: 'shared.rich-text', body: 'Some **bold** words' }]);
    expect(await app.app.db.query('shared.quote').count({})).to.equal(0);
  });

  it('ran without a page error or a failed request, and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(failed).to.deep.equal([]);
    expect(blocked.filter((url) => !url.startsWith('https://api.github.com/'))).to.deep.equal([]);
  });
});

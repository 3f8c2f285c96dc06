/**
 * The content manager's list view and relations in Strapi 4.26.2's real admin panel (Chromium, playwright-core) over
 * the example app with 28 articles (lists-relations-fixture.ts), every other host cut off: filters added from the
 * Filters button (text, relation, enumeration, boolean, two at once), the page size, pages and sort; a to-many
 * relation column; an article's tags connected from the relation picker's search, reordered from the keyboard and
 * disconnected, a draft category connected and the article published; an entry deleted from its edit view; the
 * category relation's main field changed in "Configure the view". After each step the panel's URL and rows are
 * held to the answer computed from the seed and to what the admin API and REST answer, and writes are read back
 * through REST and the join table. Strapi's answers for a relation to a draft are in recordings/.
 */
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { openBrowser, type TestApp } from '@tessera/testing';
import { EXAMPLE_PACKAGE, saveEntry, signInToPanel, skipUnlessPanelRuns, startPanelApp } from '../../admin/test/panel-build';
import { orderedBy } from '../../../packages/database/test/relations-helpers';
import { ARTICLE, categoryWithDrafts, LAB, pageOf, seedArticles, TAGS, type Seed, type SeededArticle } from './lists-relations-fixture';
import { ArticleList, cell, COLUMNS, LIST_API, rowCell, WAIT } from './lists-relations-list';
import recordedDraftRelation from './recordings/strapi-4.26.2-draft-relation.json';

const EDITOR = { firstname: 'Lis', lastname: 'Lister', email: 'lis@example.com', password: 'Secret123' };
const LIST = `/admin/content-manager/collection-types/${ARTICLE}`;

describe('content manager in Chromium: list filters, pages, sort and relations [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiToken: string;
  let adminToken: string;
  let seed: Seed;
  let list: ArticleList;
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const failed: string[] = [];

  const lab = () => seed.articles.find((article) => article.title === LAB)!;

  /** The article as REST reads it, drafts included, with its category and tags. */
  async function restArticle(id: number, query = 'publicationState=preview&populate[category]=true&populate[tags]=true'): Promise<Record<string, any>> {
    const response = await app.get(`/api/articles/${id}?${query}`, { token: apiToken });
    expect(response.status).to.equal(200);
    return response.body.data.attributes;
  }

  /** The tags of the edit view's relation list, top to bottom (to-many items are the ones with a drag handle). */
  async function tagsShown(): Promise<string[]> {
    const items = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Drag' }) });
    // Each item reads "Drag" (its handle's label) on a line of its own, then the tag.
    return (await items.allInnerTexts()).map((text) => text.trim().split('\n').pop()!.trim());
  }

  /** Opens a relation picker's list from the keyboard (its label reads "category (1)" once it has a relation). */
  async function openPicker(field: string): Promise<void> {
    await page.getByRole('combobox', { name: new RegExp(`^${field}`) }).focus();
    await page.keyboard.press('ArrowDown');
  }

  async function save(): Promise<Response> {
    const response = await saveEntry(page, ARTICLE);
    expect(response.status(), await response.text()).to.equal(200);
    return response;
  }

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await startPanelApp({ files: { 'package.json': EXAMPLE_PACKAGE, ...categoryWithDrafts() } });
    const registered = await app.post('/admin/register-admin', EDITOR);
    expect(registered.status).to.equal(200);
    adminToken = registered.body.data.token;
    apiToken = await app.fullAccessToken();
    seed = await seedArticles(app);
    // The list's columns, as "Configure the view" would store them: a to-one and a to-many relation among them.
    const configuration = (await app.get(`/content-manager/content-types/${ARTICLE}/configuration`, { token: adminToken })).body.data.contentType;
    const { settings, layouts } = configuration;
    // The answer gives a relation's list metadata its main field, which a write refuses: the panel drops it too.
    const metadatas = Object.fromEntries(
      Object.entries(configuration.metadatas as Record<string, { edit: object; list: Record<string, unknown> }>).map(([name, { edit, list: listed }]) => {
        const { mainField, ...kept } = listed;
        return [name, { edit, list: kept }];
      }),
    );
    const stored = await app.put(`/content-manager/content-types/${ARTICLE}/configuration`, { settings, metadatas, layouts: { ...layouts, list: COLUMNS } }, { token: adminToken });
    expect(stored.status, JSON.stringify(stored.body)).to.equal(200);
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors, failed }, { viewport: { width: 1400, height: 1200 } }));
    list = new ArticleList(page, app, { admin: adminToken, api: apiToken }, seed);
    page.on('dialog', (dialog) => void dialog.accept());
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  it('filters from the Filters button: title contains, then a category too, then the category alone', async function () {
    this.timeout(240_000);
    await signInToPanel(page, app.url, EDITOR);
    await list.answered(() => page.goto(`${app.url}${LIST}`));
    await list.expect([], () => true, 'title:ASC', 1, 10);

    // "contains" is $contains: case-sensitive on every database in Tessera (Strapi folds case on SQLite only:
    // docs/compatibility.md), so the value is typed in the titles' case.
    await list.addFilter('title', 'contains', { typed: 'Moon' });
    const moon = (article: SeededArticle) => article.title.includes('Moon');
    await list.expect([['filters[$and][0][title][$contains]', 'Moon']], moon, 'title:ASC', 1, 10);

    // A relation is filtered on its main field: category.name.
    await list.addFilter('category', undefined, { typed: 'Science' });
    const science = (article: SeededArticle) => article.category === 'Science';
    await list.expect(
      [
        ['filters[$and][0][title][$contains]', 'Moon'],
        ['filters[$and][1][category][name][$eq]', 'Science'],
      ],
      (article) => moon(article) && science(article),
      'title:ASC',
      1,
      10,
    );

    await list.answered(() => page.getByRole('button', { name: 'title contains Moon' }).click());
    await list.expect([['filters[$and][0][category][name][$eq]', 'Science']], science, 'title:ASC', 1, 10);
  });

  it('filters on an enumeration, then on a boolean as well', async function () {
    this.timeout(240_000);
    await list.answered(() => page.getByRole('button', { name: 'category is Science' }).click());
    await list.expect([], () => true, 'title:ASC', 1, 10);
    await list.addFilter('status', undefined, { chosen: 'approved' });
    const approved = (article: SeededArticle) => article.status === 'approved';
    await list.expect([['filters[$and][0][status][$eq]', 'approved']], approved, 'title:ASC', 1, 10);
    await list.addFilter('featured', undefined, { chosen: 'true' });
    await list.expect(
      [
        ['filters[$and][0][status][$eq]', 'approved'],
        ['filters[$and][1][featured][$eq]', 'true'],
      ],
      (article) => approved(article) && article.featured,
      'title:ASC',
      1,
      10,
    );
  });

  it('pages the list: 20 then 10 entries per page, page 2, the last page; then sorts on views and on the category from their headers', async function () {
    this.timeout(240_000);
    await list.answered(() => page.goto(`${app.url}${LIST}`));
    await list.expect([], () => true, 'title:ASC', 1, 10);
    const all = () => true;
    for (const size of [20, 10]) {
      await page.getByRole('combobox', { name: 'Entries per page' }).click();
      await list.answered(() => page.getByRole('option', { name: String(size), exact: true }).click());
      await list.expect([], all, 'title:ASC', 1, size);
    }
    await list.answered(() => page.getByRole('link', { name: 'Go to page 2', exact: true }).click());
    await list.expect([], all, 'title:ASC', 2, 10);
    const last = Math.ceil(seed.articles.length / 10);
    await list.answered(() => page.getByRole('link', { name: `Go to page ${last}`, exact: true }).click());
    await list.expect([], all, 'title:ASC', last, 10);
    expect(await page.locator('tbody tr').count()).to.equal(seed.articles.length - (last - 1) * 10);

    // A header sorts the list without leaving the page; a second click turns the order around.
    await list.answered(() => page.getByRole('button', { name: 'Sort on views' }).click());
    await list.expect([], all, 'views:ASC', last, 10);
    await list.answered(() => page.getByRole('button', { name: 'Sort on views' }).click());
    await list.expect([], all, 'views:DESC', last, 10);
    // A relation column sorts on the relation's main field: the panel asks for category[name], which Strapi's
    // content manager reads as the path category.name.
    for (const direction of ['ASC', 'DESC']) {
      await list.answered(() => page.getByRole('button', { name: 'Sort on category' }).click());
      await list.expect([], all, `category[name]:${direction}`, last, 10);
    }
  });

  it("shows a to-many relation as its count, and the related tags' names when opened", async function () {
    this.timeout(120_000);
    await list.answered(() => page.goto(`${app.url}${LIST}?page=1&pageSize=10&sort=title:ASC`));
    const rows = pageOf(seed.articles, 'title:ASC', 1, 10).map((title) => seed.articles.find((article) => article.title === title)!);
    expect(await list.shown('category', rows.map((article) => article.category ?? '-'))).to.deep.equal(rows.map((article) => article.category ?? '-'));
    const counts = rows.map((article) => (article.tags.length === 0 ? '-' : `${article.tags.length} items`));
    expect((await page.locator(cell('tags')).allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).to.deep.equal(counts);
    const admin = await app.get(`${LIST_API}?page=1&pageSize=10&sort=title:ASC`, { token: adminToken });
    expect(admin.body.results.map((entry: { tags: { count: number } }) => entry.tags.count)).to.deep.equal(rows.map((article) => article.tags.length));

    const threeTags = rows.find((article) => article.tags.length === 3)!;
    const row = page.locator('tbody tr', { hasText: threeTags.title });
    const loaded = page.waitForResponse((response) => new URL(response.url()).pathname === `/content-manager/relations/${ARTICLE}/${threeTags.id}/tags`, WAIT);
    await row.locator(rowCell('tags')).getByRole('button').click();
    expect((await loaded).status()).to.equal(200);
    const menu = page.getByRole('menuitem');
    await menu.first().waitFor(WAIT);
    const stored = (await restArticle(threeTags.id)).tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name);
    expect(stored).to.deep.equal(threeTags.tags);
    expect((await menu.allInnerTexts()).map((text) => text.trim())).to.deep.equal(stored);
    await page.keyboard.press('Escape');
  });

  it('connects three tags from the picker\'s search, moves the last to the top from the keyboard, saves: REST and the join table follow', async function () {
    this.timeout(240_000);
    await page.goto(`${app.url}${LIST}/${lab().id}`);
    await page.waitForSelector('input[name="title"]', WAIT);
    const picker = page.getByRole('combobox', { name: /^tags/ });
    for (const [typed, tag] of [['phy', 'physics'], ['chem', 'chemistry'], ['mus', 'music']]) {
      const searched = page.waitForResponse((response) => new URL(response.url()).pathname === `/content-manager/relations/${ARTICLE}/tags` && new URL(response.url()).searchParams.get('_q') === typed, WAIT);
      // The picker searches as it is typed into (fill() leaves its list closed, and a click races the list that
      // the last choice is closing).
      await picker.focus();
      await picker.pressSequentially(typed);
      expect((await searched).status()).to.equal(200);
      await page.getByRole('option', { name: tag, exact: true }).waitFor(WAIT);
      expect((await page.getByRole('option').allInnerTexts()).map((text) => text.trim())).to.deep.equal(TAGS.filter((name) => name.includes(typed)));
      await page.getByRole('option', { name: tag, exact: true }).click();
    }
    const connected = await tagsShown();
    expect([...connected].sort()).to.deep.equal(['chemistry', 'music', 'physics']);

    // The panel's drag handle: space grabs, an arrow moves, space drops.
    const last = connected[2];
    await page.getByRole('listitem').filter({ hasText: last }).getByRole('button', { name: 'Drag' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    const order = [last, connected[0], connected[1]];
    expect(await tagsShown()).to.deep.equal(order);
    await save();
    const stored = (await restArticle(lab().id)).tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name);
    expect(stored).to.deep.equal(order);
    const joined = await orderedBy(app, 'articles_tags_links', 'article_id', lab().id, 'tag_id', 'tag_order');
    expect(joined.map(([tag]) => tag)).to.deep.equal(order.map((name) => seed.tags.get(name)));
  });

  it('disconnects a tag and saves: it is gone from REST and the join table', async function () {
    this.timeout(120_000);
    const before = await tagsShown();
    await page.getByRole('listitem').filter({ hasText: before[1] }).getByRole('button', { name: 'Remove' }).click();
    const kept = [before[0], before[2]];
    expect(await tagsShown()).to.deep.equal(kept);
    await save();
    expect((await restArticle(lab().id)).tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).to.deep.equal(kept);
    const joined = await orderedBy(app, 'articles_tags_links', 'article_id', lab().id, 'tag_id', 'tag_order');
    expect(joined.map(([tag]) => tag)).to.deep.equal(kept.map((name) => seed.tags.get(name)));
  });

  it('connects a draft category (the picker and the field say Draft) and publishes the article past the warning: live, REST hides the draft category until it is published', async function () {
    this.timeout(240_000);
    await openPicker('category');
    // An option of a type with draft & publish is named by its state's bullet too ("State: Draft Upcoming").
    const option = (text: string) => page.getByRole('option').filter({ hasText: new RegExp(`^${text}$`) });
    const draft = option('Upcoming');
    await draft.waitFor(WAIT);
    // Options in main-field order, each with its state as a bullet's title.
    expect((await page.getByRole('option').allInnerTexts()).map((text) => text.trim())).to.deep.equal(['Art', 'History', 'Science', 'Upcoming']);
    expect(await draft.locator('[title="State: Draft"]').count()).to.equal(1);
    expect(await option('Science').locator('[title="State: Published"]').count()).to.equal(1);
    await draft.click();
    await page.getByRole('listitem').filter({ hasText: 'Upcoming' }).getByText('Draft', { exact: true }).waitFor(WAIT);
    await save();
    const saved = await restArticle(lab().id);
    expect({ name: saved.category.data.attributes.name, publishedAt: saved.category.data.attributes.publishedAt, article: saved.publishedAt }).to.deep.equal({ name: 'Upcoming', publishedAt: null, article: null });

    const counted = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith(`/${lab().id}/actions/countDraftRelations`), WAIT);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const count = await counted;
    expect({ status: count.status(), body: await count.json() }).to.deep.equal(recordedDraftRelation.countDraftRelations);
    const dialog = page.getByRole('dialog', { name: 'Confirmation' });
    await dialog.getByText('relation is not published yet', { exact: false }).waitFor(WAIT);
    const published = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith(`/${lab().id}/actions/publish`), WAIT);
    await dialog.getByRole('button', { name: 'Yes, publish' }).click();
    expect((await published).status()).to.equal(recordedDraftRelation.publish.status);

    // Strapi 4.26.2 publishes the article and, live, still populates and filters on its draft category (recorded).
    // Tessera applies the publication state at every level (docs/compatibility.md, "No drafts through populate"):
    // live, the article has no category while the category is a draft; preview shows it.
    expect(recordedDraftRelation.restLive.category.publishedAt).to.equal(null);
    const live = await restArticle(lab().id, 'populate[category]=true');
    expect(live.publishedAt).to.be.a('string');
    expect(live.category.data).to.equal(null);
    expect((await restArticle(lab().id)).category.data.attributes.name).to.equal('Upcoming');
    const liveByCategory = async () => (await app.get('/api/articles?filters[category][name][$eq]=Upcoming&fields[0]=title', { token: apiToken })).body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title);
    expect(await liveByCategory()).to.deep.equal([]);

    // Published from its own edit view, the category shows live.
    const upcoming = seed.categories.find((category) => category.name === 'Upcoming')!;
    await page.goto(`${app.url}/admin/content-manager/collection-types/api::category.category/${upcoming.id}`);
    await page.waitForSelector('input[name="name"]', WAIT);
    const categoryPublished = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith(`/${upcoming.id}/actions/publish`), WAIT);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    expect((await categoryPublished).status()).to.equal(200);
    const { name, code, publishedAt } = (await restArticle(lab().id, 'populate[category]=true')).category.data.attributes;
    expect({ name, code, published: typeof publishedAt }).to.deep.equal({ name: 'Upcoming', code: 'UPC', published: 'string' });
    expect(await liveByCategory()).to.deep.equal([LAB]);
  });

  it('deletes an entry from its edit view: gone from REST and from the list', async function () {
    this.timeout(120_000);
    const doomed = seed.articles.find((article) => article.title === 'Star notes 02')!;
    await page.goto(`${app.url}${LIST}/${doomed.id}`);
    await page.waitForSelector('input[name="title"]', WAIT);
    await page.getByRole('button', { name: 'Delete this entry' }).click();
    const deleted = page.waitForResponse((response) => response.request().method() === 'DELETE' && new URL(response.url()).pathname === `${LIST_API}/${doomed.id}`, WAIT);
    await page.getByRole('dialog', { name: 'Confirmation' }).getByRole('button', { name: 'Confirm' }).click();
    expect((await deleted).status()).to.equal(200);
    expect((await app.get(`/api/articles/${doomed.id}?publicationState=preview`, { token: apiToken })).status).to.equal(404);
    seed.articles = seed.articles.filter((article) => article !== doomed);
    await page.waitForURL((url) => url.pathname === LIST, WAIT);
    await list.expect([], () => true, 'title:ASC', 1, 10);
  });

  it("changes the category relation's main field to code in Configure the view: the picker and the list show codes", async function () {
    this.timeout(240_000);
    await page.goto(`${app.url}${LIST}/${lab().id}`);
    await page.waitForSelector('input[name="title"]', WAIT);
    await page.getByRole('link', { name: 'Configure the view' }).click();
    await page.waitForSelector('text=Configure the view — Article', WAIT);
    await page.getByRole('button', { name: 'Edit category' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('combobox', { name: 'Entry title' }).click();
    await page.getByRole('option', { name: 'code', exact: true }).click();
    await modal.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && new URL(response.url()).pathname === `/content-manager/content-types/${ARTICLE}/configuration`, WAIT);
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect((await saved).status()).to.equal(200);
    const row = await app.app.db.query('strapi::core-store').findOne({ where: { key: `plugin_content_manager_configuration_content_types::${ARTICLE}` }, select: ['value'] });
    expect(JSON.parse(String(row?.value)).metadatas.category.edit.mainField).to.equal('code');

    await page.goto(`${app.url}${LIST}/${lab().id}`);
    await page.waitForSelector('input[name="title"]', WAIT);
    await page.getByRole('listitem').filter({ hasText: 'UPC' }).getByText('Published', { exact: true }).waitFor(WAIT);
    // The picker offers the other categories (not the one the article has), by code.
    await openPicker('category');
    await page.getByRole('option').filter({ hasText: /^SCI$/ }).waitFor(WAIT);
    expect((await page.getByRole('option').allInnerTexts()).map((text) => text.trim())).to.deep.equal(['ART', 'HIS', 'SCI']);
    await page.keyboard.press('Escape');

    await list.answered(() => page.goto(`${app.url}${LIST}?page=1&pageSize=10&sort=title:ASC`));
    const rows = pageOf(seed.articles, 'title:ASC', 1, 10).map((title) => seed.articles.find((article) => article.title === title)!);
    const expected = rows.map((article) => seed.categories.find((category) => category.name === article.category)?.code ?? '-');
    expect(await list.shown('category', expected)).to.deep.equal(expected);
    const admin = await app.get(`${LIST_API}?page=1&pageSize=10&sort=title:ASC`, { token: adminToken });
    expect(admin.body.results.map((entry: { category: { code: string } | null }) => entry.category?.code ?? '-')).to.deep.equal(expected);
  });

  it('ran without a page error or a failed request, and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(failed).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});

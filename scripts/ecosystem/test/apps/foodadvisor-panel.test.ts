/**
 * FoodAdvisor (strapi/foodadvisor, the official Strapi v4 demo) edited in Strapi 4.26.2's real admin panel on
 * Tessera: its `api/` booted unchanged on SQLite with the panel `tessera build` makes from it (its `src/admin`
 * buttons, its plugins' admin sides: ckeditor, seo, i18n, calendar, scheduler, todo…; foodadvisor-panel-app.ts),
 * seeded as the client test seeds it, driven in Chromium with every other host cut off. Every type of the content
 * manager's menu opens (columns and rows held to the admin API's answers), a seeded entry of each opens with every
 * field of its layout shown, and four edits over FoodAdvisor's own schema are saved and read back through REST: a
 * restaurant's name, category and component field; a block added to the home page's dynamic zone and moved; a
 * link of the global single type's nested navigation; a restaurant's French version. Skips, saying why, without the
 * npm registry or Chromium.
 */
import { expect } from 'chai';
import type { Browser, Page, Response } from 'playwright-core';
import { chromiumMissing, filledValue, openBrowser, registryUnreachable, type TestApp } from '@tessera/testing';
import { signInToPanel } from '../../../../plugins/admin/test/panel-build';
import { EDITOR, startFoodAdvisorPanel } from './foodadvisor-panel-app';
import { configurationOf, displayedTypes, editLabels, listAnswer, listHeaders, listIds, openFromMenu, showsField, viewPath, WAIT, type ContentTypeInfo } from './foodadvisor-panel-views';

const RESTAURANT = 'api::restaurant.restaurant';

describe('Strapi ecosystem: FoodAdvisor in the admin panel on Tessera [sqlite]', function () {
  this.timeout(15 * 60_000);
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let apiToken: string;
  let ids: Record<string, number>;
  let types: ContentTypeInfo[];
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const failed: string[] = [];

  /** A REST read (drafts included), answered 200. */
  async function rest(path: string): Promise<any> {
    const answer = await app.get(path, { token: apiToken });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body.data;
  }

  /** The edit view's Save (the todo plugin's panel beside it has a Save of its own). */
  const saveButton = () => page.locator('button[type="submit"]', { hasText: 'Save' });

  /** Clicks Save and waits for the content manager's write (collection or single type) to answer 200 and the panel's "Saved". */
  async function save(uid: string): Promise<Response> {
    const written = page.waitForResponse((response) => ['POST', 'PUT'].includes(response.request().method()) && new URL(response.url()).pathname.includes(`-types/${uid}`), WAIT);
    await saveButton().click();
    const response = await written;
    expect(response.status(), await response.text()).to.equal(200);
    await page.waitForSelector('text=Saved', WAIT);
    return response;
  }

  before(async function () {
    const reason = registryUnreachable() ?? chromiumMissing();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    ({ app, token: adminToken, ids } = await startFoodAdvisorPanel());
    apiToken = await app.fullAccessToken();
    // A seeded review and user, so every type of the menu has an entry to open.
    ids.review = (await app.post('/api/reviews', { data: { content: 'Lovely terrace.', note: 4, restaurant: ids.restaurant1 } }, { token: apiToken })).body.data.id;
    const roles = (await app.get('/users-permissions/roles', { token: adminToken })).body.roles as Array<{ id: number; type: string }>;
    const role = roles.find((candidate) => candidate.type === 'authenticated')!.id;
    const user = await app.post('/content-manager/collection-types/plugin::users-permissions.user', { username: 'diner', email: 'diner@foodadvisor.test', password: 'Diner1234', job: 'Critic', confirmed: true, blocked: false, role }, { token: adminToken });
    expect(user.status, JSON.stringify(user.body)).to.equal(201); // users-permissions' own create answers 201, as on Strapi
    types = await displayedTypes(app, adminToken);
    ({ browser, page } = await openBrowser(app.url, { blocked, pageErrors, failed }, { viewport: { width: 1400, height: 1000 } }));
    page.on('dialog', (dialog) => void dialog.accept());
    await signInToPanel(page, app.url, EDITOR);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("opens every content type's list view from the content manager's menu: its columns and rows are the admin API's", async function () {
    expect(types.map((type) => type.uid).sort()).to.deep.equal(
      ['article', 'blog-page', 'category', 'global', 'page', 'place', 'restaurant', 'restaurant-page', 'review'].map((name) => `api::${name}.${name}`).concat('plugin::users-permissions.user').sort(),
    );
    // From the last type's view, so the first link clicked opens another view (a click on the open one asks nothing).
    await page.goto(`${app.url}${viewPath(types[types.length - 1])}`);
    for (const type of types) {
      const asked = await openFromMenu(page, type).catch((error: Error) => {
        throw new Error(`${type.uid}: ${error.message}`);
      });
      expect(asked.status(), type.uid).to.equal(200);
      expect(new URL(page.url()).pathname, type.uid).to.equal(viewPath(type));
      if (type.kind === 'singleType') continue; // a single type's menu link opens its edit view (next test)
      const configuration = await configurationOf(app, adminToken, type.uid);
      const rows = await listAnswer(app, adminToken, type, configuration);
      await page.waitForSelector(rows.length === 0 ? 'text=No content found' : 'tbody tr', WAIT);
      const labels = configuration.layouts.list.map((name) => configuration.metadatas[name].list.label.toLowerCase());
      // The columns the panel adds: i18n's locales of a localized type, the publication state of a draft type.
      const added = [type.pluginOptions?.i18n?.localized ? ['content available in'] : [], type.options?.draftAndPublish ? ['state'] : []].flat();
      expect(await listHeaders(page), type.uid).to.deep.equal([...labels, ...added, 'actions']);
      expect(await listIds(page), type.uid).to.deep.equal(rows.map((row) => row.id));
      expect(rows.length, `${type.uid}: seeded`).to.be.greaterThan(0);
    }
  });

  it('opens a seeded entry of each type in its edit view: every field of the layout renders', async function () {
    for (const type of types) {
      const configuration = await configurationOf(app, adminToken, type.uid);
      let target = viewPath(type);
      if (type.kind === 'collectionType') target += `/${(await listAnswer(app, adminToken, type, configuration))[0].id}`;
      await page.goto(`${app.url}${target}`);
      await saveButton().waitFor(WAIT);
      const missing: string[] = [];
      for (const { name, label } of editLabels(configuration)) if (!(await showsField(page, label, type.attributes[name]?.type === 'dynamiczone'))) missing.push(label);
      expect(missing, `${type.uid}: fields not shown`).to.deep.equal([]);
      expect(await page.getByText('Something went wrong').count(), `${type.uid}: an error boundary`).to.equal(0);
    }
  });

  it("edits a restaurant's name, category and information's description, read back through REST", async function () {
    await page.goto(`${app.url}${viewPath({ uid: RESTAURANT, kind: 'collectionType' } as ContentTypeInfo)}/${ids.restaurant1}`);
    expect(await filledValue(page, 'input[name="name"]')).to.equal('Mint Lounge');
    // FoodAdvisor's own src/admin buttons, injected into the edit view's right links.
    for (const name of ['Preview', 'Share on Twitter']) await page.getByRole('button', { name, exact: true }).waitFor(WAIT);
    await page.fill('input[name="name"]', 'Mint Lounge Terrace');
    await page.getByRole('textbox', { name: 'description', exact: true }).fill('Mint Lounge serves food outside.');
    // The to-one relation: picking another category replaces the first.
    await page.getByRole('combobox', { name: /^category/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Asian' }).click();
    await save(RESTAURANT);
    const stored = await rest(`/api/restaurants/${ids.restaurant1}?publicationState=preview&populate[category]=true&populate[information]=true`);
    expect([stored.attributes.name, stored.attributes.slug, stored.attributes.information.description, stored.attributes.category.data.id]).to.deep.equal([
      'Mint Lounge Terrace',
      'mint-lounge',
      'Mint Lounge serves food outside.',
      ids.catAsian,
    ]);
  });

  it("adds a block to the home page's dynamic zone, fills it, moves it above the FAQ and saves", async function () {
    const PAGE = 'api::page.page';
    await page.goto(`${app.url}/admin/content-manager/collection-types/${PAGE}/${ids.pageHome}`);
    expect(await filledValue(page, 'input[name="title"]')).to.equal('Home');
    await page.getByRole('button', { name: 'Add a component to blocks' }).click();
    await page.getByRole('button', { name: /^CtaCommandLine/ }).first().click();
    const block = page.getByRole('region', { name: /^CtaCommandLine/ });
    await block.getByRole('textbox', { name: 'title' }).fill('Start cooking');
    await block.getByRole('textbox', { name: 'text' }).fill('One command');
    await block.getByRole('textbox', { name: 'commandLine' }).fill('npx create-strapi-app@4 foodadvisor');
    // The panel's drag handle from the keyboard: space grabs, an arrow moves, space drops.
    const handle = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^Delete CtaCommandLine/ }) }).getByRole('button', { name: 'Drag' });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    await save(PAGE);
    const stored = await rest(`/api/pages/${ids.pageHome}?publicationState=preview&populate[blocks][populate]=*`);
    const blocks = stored.attributes.blocks as Array<Record<string, unknown>>;
    expect(blocks.map((entry) => entry.__component)).to.deep.equal(['blocks.hero', 'blocks.related-restaurants', 'blocks.cta-command-line', 'blocks.faq']);
    const { theme, title, text, commandLine } = blocks[2];
    expect({ theme, title, text, commandLine }).to.deep.equal({ theme: 'primary', title: 'Start cooking', text: 'One command', commandLine: 'npx create-strapi-app@4 foodadvisor' });
    expect(blocks[3].faq).to.have.length(1);
    // The blocks the edit left alone keep their relations: the panel sends a component's relations as changes only.
    expect((blocks[1].restaurants as { data: Array<{ id: number }> }).data.map((restaurant) => restaurant.id)).to.deep.equal([ids.restaurant1, ids.restaurant3]);
  });

  it("renames a link of the global single type's nested navigation", async function () {
    const GLOBAL = 'api::global.global';
    await page.goto(`${app.url}/admin/content-manager/single-types/${GLOBAL}`);
    await saveButton().waitFor(WAIT);
    // A repeatable component's entries are folded, each under its main field's value.
    await page.getByRole('button', { name: /^\/restaurants|^Restaurants/ }).first().click();
    const label = page.locator('input[name="navigation.links.0.label"]');
    expect(await filledValue(page, 'input[name="navigation.links.0.label"]')).to.equal('Restaurants');
    await label.fill('Places to eat');
    await save(GLOBAL);
    const stored = await rest('/api/global?publicationState=preview&populate[navigation][populate]=*');
    const links = stored.attributes.navigation.links as Array<{ label: string; href: string }>;
    expect(links.map(({ label: text, href }) => [text, href])).to.deep.equal([
      ['Places to eat', '/restaurants'],
      ['Blog', '/blog'],
    ]);
    expect(stored.attributes.navigation.rightButton.label).to.equal('Contact');
  });

  it("creates a restaurant's French version from its edit view's locale picker", async function () {
    const created = await app.post('/i18n/locales', { name: 'French (fr)', code: 'fr', isDefault: false }, { token: adminToken });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    await page.goto(`${app.url}/admin/content-manager/collection-types/${RESTAURANT}/${ids.restaurant2}?plugins[i18n][locale]=en`);
    expect(await filledValue(page, 'input[name="name"]')).to.equal('Le Bistrot');
    await page.getByRole('combobox', { name: 'Locales', exact: true }).click();
    await page.getByRole('option', { name: /French \(fr\)/ }).click();
    await page.waitForURL(/\/create\?/, WAIT);
    await page.fill('input[name="name"]', 'Le Bistrot (français)');
    await page.fill('input[name="slug"]', 'le-bistrot-fr');
    const written = await save(RESTAURANT);
    const query = new URL(written.url()).searchParams;
    expect([query.get('locale'), query.get('relatedEntityId')]).to.deep.equal(['fr', String(ids.restaurant2)]);
    const french = await rest('/api/restaurants?locale=fr&publicationState=preview&populate[images]=true&populate[localizations]=true');
    expect(french.map((entry: any) => [entry.attributes.name, entry.attributes.slug, entry.attributes.locale, entry.attributes.price, entry.attributes.images.data.map((image: { id: number }) => image.id)])).to.deep.equal([
      ['Le Bistrot (français)', 'le-bistrot-fr', 'fr', 'p2', [ids.photo2]],
    ]);
    expect(french[0].attributes.localizations.data.map((other: { id: number }) => other.id)).to.deep.equal([ids.restaurant2]);
  });

  it('ran without a page error or a failed request, and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(failed).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});

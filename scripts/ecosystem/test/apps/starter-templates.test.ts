import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { bootFolder, stopFolderApp, registryUnreachable } from './app-folder';
import { makeTemplateApp } from './template-app';

/**
 * Strapi's other official v4 templates on npm, `@strapi/template-ecommerce@1.0.0` and
 * `@strapi/template-corporate@1.0.0` (their only releases), made into apps as create-strapi-app 4.26.2 makes them and
 * booted on Tessera unchanged (SQLite: what they exercise is the loader and the entity service, not SQL). Their
 * bootstraps seed through the upload service and `strapi.entityService.create`; the requests are their frontends'
 * (strapi/starters-and-templates, packages/starters/next-ecommerce and next-corporate: utils/api.js). Expected values
 * are what Strapi 4.26.2 answered for the same apps.
 */
type Attributes = Record<string, unknown>;
interface Entry {
  id: number | string;
  attributes: Attributes;
}
interface Media {
  data: { attributes: { name?: string; mime: string; width: number | null; height: number | null; formats: Record<string, unknown> | null } } | null;
}

const slugs = (entries: Entry[]) => entries.map((entry) => entry.attributes.slug as string).sort();

describe('Strapi ecosystem: @strapi/template-ecommerce@1.0.0 on Tessera, unchanged [sqlite]', function () {
  this.timeout(300_000);
  let dir: string;
  let app: TestApp;

  before(async function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    dir = makeTemplateApp('@strapi/template-ecommerce@1.0.0', 'ecommerce');
    // Its product ↔ category relation says `inversedBy` on both sides: Strapi boots it with a warning.
    app = await bootFolder(dir, 'sqlite');
  });
  after(async () => {
    await stopFolderApp(app);
    if (dir) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("keeps both sides' links in Strapi's table for the side its metadata builder meets last (products_categories_links)", async () => {
    const [stored] = (await app.app.db.connection('products_categories_links').count({ links: '*' })) as Array<{ links: number | string }>;
    expect(Number(stored.links)).to.equal(33);
  });

  it('answers getCategories and getCategory(slug) (populate[products][populate]=image)', async () => {
    const categories = await app.get('/api/categories');
    expect(categories.status).to.equal(200);
    expect(slugs(categories.body.data as Entry[])).to.deep.equal(['back', 'container', 'database', 'front', 'other', 'ssg']);
    const front = await app.get('/api/categories?filters[slug][$eq]=front&populate[products][populate]=image');
    const [category] = front.body.data as Entry[];
    const products = (category.attributes.products as { data: Entry[] }).data;
    expect(slugs(products)).to.deep.equal(['angular', 'kotlin', 'laravel', 'next-js', 'nuxt-js', 'react', 'ruby-on-rails', 'swift', 'vue-js']);
    const images = products
      .sort((a, b) => String(a.attributes.slug).localeCompare(String(b.attributes.slug)))
      .map((product) => (product.attributes.image as Media).data!.attributes)
      .map((image) => [image.mime, image.width, image.height, Object.keys(image.formats ?? {}).sort().join()]);
    const png = (side: number) => ['image/png', side, side, side > 500 ? 'small,thumbnail' : 'thumbnail'];
    expect(images).to.deep.equal([375, 400, 400, 600, 600, 400, 375, 375, 400].map(png));
  });

  it('answers getProducts and getProduct(slug) (populate=image)', async () => {
    const products = await app.get('/api/products?populate=image');
    expect(products.body.meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 2, total: 27 } });
    const gatsby = await app.get('/api/products?filters[slug][$eq]=gatsby&populate=image');
    const [entry] = gatsby.body.data as Entry[];
    const { title, price, slug, status, image } = entry.attributes;
    expect({ title, price, slug, status, image: (image as Media).data!.attributes.name }).to.deep.equal({ title: 'Gatsby', price: 1.84, slug: 'gatsby', status: 'published', image: 'gatsby' });
  });

  it('reads the relation from both sides as Strapi 4.26.2 does', async () => {
    const categories = await app.get('/api/categories?populate[products][fields][0]=slug&fields[0]=slug');
    const bySlug = Object.fromEntries((categories.body.data as Entry[]).map((entry) => [entry.attributes.slug, slugs((entry.attributes.products as { data: Entry[] }).data)]));
    expect(bySlug).to.deep.equal({
      back: ['c-plus-plus', 'golang', 'java', 'kotlin', 'laravel', 'php', 'python', 'ruby-1', 'ruby-on-rails', 'rust', 'strapi', 'swift'],
      container: ['docker', 'kubernetes'],
      database: ['mongo-db', 'postgre-sql', 'sq-lite'],
      front: ['angular', 'kotlin', 'laravel', 'next-js', 'nuxt-js', 'react', 'ruby-on-rails', 'swift', 'vue-js'],
      other: ['google-cloud', 'graph-ql', 'linux', 'npm'],
      ssg: ['gatsby', 'next-js', 'nuxt-js'],
    });
    const nextJs = await app.get('/api/products?filters[slug][$eq]=next-js&populate[categories][fields][0]=slug');
    expect(slugs(((nextJs.body.data as Entry[])[0].attributes.categories as { data: Entry[] }).data)).to.deep.equal(['front', 'ssg']);
  });
});

/** next-corporate's GetPages and GetGlobal (utils/api.js), cut to the sections these pages hold. */
const FILE_PARTS = 'fragment FileParts on UploadFileEntityResponse { data { id attributes { alternativeText width height mime url formats } } }';
const GET_PAGES = `${FILE_PARTS}
query GetPages($slug: String!, $publicationState: PublicationState!, $locale: I18NLocaleCode!) {
  pages(filters: { slug: { eq: $slug } }, publicationState: $publicationState, locale: $locale) {
    data { id attributes {
      locale localizations { data { id attributes { locale } } } slug
      metadata { metaTitle metaDescription shareImage { ...FileParts } twitterCardType twitterUsername }
      contentSections {
        __typename
        ... on ComponentSectionsHero { id title label picture { ...FileParts } }
        ... on ComponentSectionsFeatureColumnsGroup { id features { id title icon { ...FileParts } } }
        ... on ComponentSectionsPricing { id title plans { id name price isRecommended features { id name } } }
        ... on ComponentSectionsRichText { id content }
      }
    } }
  }
}`;
const GET_GLOBAL = `${FILE_PARTS}
query GetGlobal($locale: I18NLocaleCode!) {
  global(locale: $locale) { data { id attributes {
    favicon { ...FileParts } metaTitleSuffix
    metadata { metaTitle metaDescription shareImage { ...FileParts } }
    navbar { logo { ...FileParts } links { id url newTab text } button { id url newTab text type } }
  } } }
}`;

describe('Strapi ecosystem: @strapi/template-corporate@1.0.0 on Tessera, unchanged [sqlite]', function () {
  this.timeout(300_000);
  let dir: string;
  let app: TestApp;
  const previousDir = process.cwd();

  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const response = await app.post('/graphql', { query, variables });
    expect(response.body.errors, JSON.stringify(response.body.errors)).to.equal(undefined);
    return response.body.data as Record<string, { data: Entry | Entry[] | null }>;
  };

  before(async function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    dir = makeTemplateApp('@strapi/template-corporate@1.0.0', 'corporate');
    // Its bootstrap does not await its creates (`forEach(async …)`) and names files by paths relative to the app:
    // the working directory stays the app's, as under `strapi start`, until the seed has settled.
    process.chdir(dir);
    app = await bootFolder(dir, 'sqlite');
    const token = await app.fullAccessToken();
    for (let waited = 0; waited < 60_000; waited += 250) {
      const pages = await app.get('/api/pages?locale=all&publicationState=preview&fields[0]=slug', { token });
      const globals = await app.get('/api/global?locale=fr', { token });
      if (pages.body.meta?.pagination?.total === 8 && globals.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  after(async () => {
    process.chdir(previousDir);
    await stopFolderApp(app);
    if (dir) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("getStaticPaths: each locale's published pages; the entity service's creates without publishedAt are drafts", async () => {
    // The template's "secret" page has no `publishedAt` (en) or `null` (fr): a draft on Strapi 4.26.2 either way.
    for (const locale of ['en', 'fr']) {
      const pages = await app.get(`/api/pages?locale=${locale}&fields%5B0%5D=slug&fields%5B1%5D=locale`);
      expect(pages.status).to.equal(200);
      const found = (pages.body.data as Entry[]).map((entry) => entry.attributes).sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
      expect(found).to.deep.equal(['', 'contact', 'pricing'].map((slug) => ({ slug, locale })));
    }
  });

  it('getPageData: the home page with its SVG pictures measured (width/height, no formats), PNGs with formats', async () => {
    const { pages } = await graphql(GET_PAGES, { slug: '', publicationState: 'LIVE', locale: 'en' });
    const [home] = pages.data as Entry[];
    const attributes = home.attributes as { locale: string; metadata: { shareImage: Media }; contentSections: Array<Record<string, unknown>> };
    expect(attributes.locale).to.equal('en');
    const share = attributes.metadata.shareImage.data!.attributes;
    expect([share.mime, share.width, share.height, Object.keys(share.formats ?? {}).sort()]).to.deep.equal(['image/png', 1119, 712, ['large', 'medium', 'small', 'thumbnail']]);
    const hero = attributes.contentSections.find((section) => section.__typename === 'ComponentSectionsHero')!;
    const picture = (hero.picture as Media).data!.attributes;
    expect({ mime: picture.mime, width: picture.width, height: picture.height, formats: picture.formats }).to.deep.equal({ mime: 'image/svg+xml', width: 879, height: 552, formats: null });
    const columns = attributes.contentSections.find((section) => section.__typename === 'ComponentSectionsFeatureColumnsGroup')!;
    const icons = (columns.features as Array<{ icon: Media }>).map((feature) => [feature.icon.data!.attributes.width, feature.icon.data!.attributes.height]);
    expect(icons).to.deep.equal([
      [24, 24],
      [24, 24],
      [24, 24],
    ]);
    const secret = await graphql(GET_PAGES, { slug: 'secret', publicationState: 'LIVE', locale: 'en' });
    expect(secret.pages.data).to.deep.equal([]);
  });

  it("getPageData in French, getLocalizedPage's REST read and getGlobalData", async () => {
    const { pages } = await graphql(GET_PAGES, { slug: 'pricing', publicationState: 'LIVE', locale: 'fr' });
    const [pricing] = pages.data as Entry[];
    const [section] = pricing.attributes.contentSections as Array<{ __typename: string; title: string; plans: Array<{ name: string }> }>;
    expect([section.__typename, section.title, section.plans.map((plan) => plan.name)]).to.deep.equal(['ComponentSectionsPricing', 'Tableau de tarifs', ['Hobby', 'Premium', 'Entreprise']]);
    const rest = await app.get(`/api/pages/${pricing.id}`);
    expect([rest.status, rest.body.data.attributes.slug, rest.body.data.attributes.locale]).to.deep.equal([200, 'pricing', 'fr']);
    const { global } = await graphql(GET_GLOBAL, { locale: 'fr' });
    const data = JSON.parse(fs.readFileSync(path.join(dir, 'data/fr/global.json'), 'utf8')) as { globalFR: { metaTitleSuffix: string; navbar: { links: Array<{ text: string; url: string }> } } };
    const attributes = (global.data as Entry).attributes as { metaTitleSuffix: string; favicon: Media; navbar: { links: Array<{ text: string; url: string }> } };
    expect(attributes.metaTitleSuffix).to.equal(data.globalFR.metaTitleSuffix);
    expect(attributes.navbar.links.map(({ text, url }) => ({ text, url }))).to.deep.equal(data.globalFR.navbar.links.map(({ text, url }) => ({ text, url })));
    expect(attributes.favicon.data!.attributes.mime).to.equal('image/png');
  });

  it("the lead form's anonymous POST /api/lead-form-submissions (create granted by the bootstrap)", async () => {
    const response = await app.post('/api/lead-form-submissions', { data: { email: 'ringo@thebeatles.com', location: 'Home Page Bottom' } });
    expect(response.status).to.equal(200);
    const { email, status, location } = response.body.data.attributes as Attributes;
    expect({ email, status, location }).to.deep.equal({ email: 'ringo@thebeatles.com', status: null, location: 'Home Page Bottom' });
  });
});

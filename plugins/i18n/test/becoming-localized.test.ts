/**
 * A type that becomes localized keeps its entries (issue 22, item 5): the
 * additive sync adds the `locale` column, and the entries written before get
 * the default locale at the next boot, as Strapi v4 does, with one log line
 * per type. Shown on the database Strapi 4.26.2 made (its blog, with
 * `category` and the `homepage` single type turned localized) and on both
 * databases across a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import restPlugin from '@tessera/plugin-rest';
import { SHARED_REFERENCE, eachDatabase, requireReference, startApp, type TestApp, type TestAppOptions } from '@tessera/testing';
import i18nPlugin from '../src';
import { CATEGORY_SCHEMA, LOCALES_BOOTSTRAP, PAGE_SCHEMA } from './fixture';

const FIXTURE = path.join(SHARED_REFERENCE, 'strapi4-fixture');
const localized = (schema: Record<string, unknown>) => ({ ...schema, pluginOptions: { i18n: { localized: true } } });
const notLocalized = (schema: Record<string, unknown>) => ({ ...schema, pluginOptions: {} });

/** Boots, returning the app and the info lines it logged while booting. */
async function bootLogging(options: TestAppOptions): Promise<{ app: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const level = process.env.TESSERA_LOG_LEVEL;
  const print = console.log;
  process.env.TESSERA_LOG_LEVEL = 'info';
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    return { app: await startApp(options), lines };
  } finally {
    console.log = print;
    if (level === undefined) delete process.env.TESSERA_LOG_LEVEL;
    else process.env.TESSERA_LOG_LEVEL = level;
  }
}

const i18nLines = (lines: string[]) => lines.filter((line) => line.includes('i18n:'));

describe('i18n: types of a Strapi-made database become localized [sqlite]', () => {
  const schema = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURE, `src/api/${name}/content-types/${name}/schema.json`), 'utf8')) as Record<string, unknown>;
  let app: TestApp;
  let lines: string[];
  let names: string[];
  let homepageTitle: string;
  const options = (): TestAppOptions => ({
    dialect: 'sqlite',
    from: FIXTURE,
    sqliteFile: path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'),
    plugins: [restPlugin, i18nPlugin],
    files: {
      'src/api/category/content-types/category/schema.json': localized(schema('category')),
      'src/api/homepage/content-types/homepage/schema.json': localized(schema('homepage')),
      'config/permissions.ts': `export default { public: ['api::category.category.find', 'api::homepage.homepage.find'] };`,
    },
  });

  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    const reference = new Database(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), { readonly: true });
    names = reference.prepare('select name from categories order by id').all().map((row: any) => row.name);
    homepageTitle = (reference.prepare('select title from homepages').get() as { title: string }).title;
    reference.close();
    ({ app, lines } = await bootLogging(options()));
  });
  after(() => app?.stop());

  it('logs, once per type, how many entries got which locale', () => {
    expect(i18nLines(lines).sort()).to.deep.equal(
      [
        `[tessera] i18n: ${names.length} existing api::category.category entries got the default locale "en"`,
        '[tessera] i18n: 1 existing api::homepage.homepage entry got the default locale "en"',
      ].sort(),
    );
  });

  it('GET answers the old entries, in the default locale', async () => {
    const categories = await app.get('/api/categories?fields[0]=name&fields[1]=locale&sort=id&pagination[pageSize]=100');
    expect(categories.status).to.equal(200);
    expect(categories.body.data.map((entry: any) => [entry.attributes.name, entry.attributes.locale])).to.deep.equal(names.map((name) => [name, 'en']));
    expect((await app.get('/api/categories?locale=fr')).body.data).to.deep.equal([]);
    const homepage = await app.get('/api/homepage');
    expect(homepage.status).to.equal(200);
    expect(homepage.body.data.attributes).to.deep.include({ title: homepageTitle, locale: 'en' });
  });

  it('leaves the types that stay unlocalized, and every timestamp, as they were', () => {
    const db = new Database(app.database.sqliteFile!, { readonly: true });
    const reference = new Database(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), { readonly: true });
    const stamps = (handle: Database.Database) => handle.prepare('select id, updated_at from categories order by id').all();
    expect(stamps(db)).to.deep.equal(stamps(reference));
    const articleColumns = db.prepare('pragma table_info(articles)').all().map((row: any) => row.name);
    db.close();
    reference.close();
    expect(articleColumns).not.to.include('locale');
  });

  it('a restart has nothing left to do', async () => {
    await app.stop({ keepDatabase: true });
    ({ app, lines } = await bootLogging({ ...options(), sqliteFile: undefined, database: app.database }));
    expect(i18nLines(lines)).to.deep.equal([]);
    expect((await app.get('/api/categories?pagination[pageSize]=100')).body.data).to.have.length(names.length);
  });
});

eachDatabase('i18n: a type becomes localized between two boots', (dialect) => {
  let app: TestApp;
  let token: string;
  const files = (schema: Record<string, unknown>) => ({
    'src/api/page/content-types/page/schema.json': schema,
    'src/api/category/content-types/category/schema.json': CATEGORY_SCHEMA,
    'config/permissions.ts': `export default { public: ['api::page.page.find', 'api::page.page.findOne'] };`,
    'src/index.js': LOCALES_BOOTSTRAP,
  });

  before(async () => {
    app = await startApp({ dialect, plugins: [restPlugin, i18nPlugin], files: files(notLocalized(PAGE_SCHEMA)) });
    token = await app.fullAccessToken();
    for (const slug of ['one', 'two', 'three']) {
      const response = await app.post('/api/pages', { data: { title: slug.toUpperCase(), slug, order: 1 } }, { token });
      expect(response.status, response.text).to.equal(200);
    }
    await app.stop({ keepDatabase: true });
    let lines: string[];
    ({ app, lines } = await bootLogging({ dialect, database: app.database, plugins: [restPlugin, i18nPlugin], files: files(localized(PAGE_SCHEMA)) }));
    expect(i18nLines(lines)).to.deep.equal(['[tessera] i18n: 3 existing api::page.page entries got the default locale "en"']);
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it('GET /api/pages answers the entries written before, in the default locale', async () => {
    const pages = await app.get('/api/pages?sort=id&fields[0]=slug&fields[1]=locale');
    expect(pages.body.data.map((entry: any) => [entry.attributes.slug, entry.attributes.locale])).to.deep.equal([
      ['one', 'en'],
      ['two', 'en'],
      ['three', 'en'],
    ]);
  });

  it('they take localizations like any localized entry', async () => {
    const [one] = (await app.get('/api/pages?filters[slug][$eq]=one')).body.data;
    const fr = await app.post(`/api/pages/${one.id}/localizations`, { locale: 'fr', title: 'UN', slug: 'un' }, { token });
    expect(fr.status, fr.text).to.equal(200);
    expect(fr.body).to.deep.include({ locale: 'fr', order: 1 });
    expect(fr.body.localizations.map((entry: { id: number }) => entry.id)).to.deep.equal([one.id]);
  });
});

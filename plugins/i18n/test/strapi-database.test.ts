/**
 * A database Strapi v4 made: the reference blog (its `i18n_locale` row and
 * core-store default) plus a localized `pages` table written the way Strapi
 * writes it. Served unchanged; schema sync only adds the `locale` index.
 * SQLite only: the reference database is a SQLite file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import restPlugin from '@tessera/plugin-rest';
import { SHARED_REFERENCE, requireReference, startApp, type TestApp } from '@tessera/testing';
import i18nPlugin from '../src';
import { CATEGORY_SCHEMA, PAGE_SCHEMA } from './fixture';

const STRAPI_TABLES = `
CREATE TABLE pages (id integer PRIMARY KEY AUTOINCREMENT NOT NULL, title varchar(255) NULL, slug varchar(255) NULL, body text NULL,
  "order" integer NULL, created_at datetime NULL, updated_at datetime NULL, published_at datetime NULL, created_by_id integer NULL,
  updated_by_id integer NULL, locale varchar(255) NULL);
CREATE UNIQUE INDEX pages_slug_unique ON pages (slug);
CREATE TABLE pages_localizations_links (id integer PRIMARY KEY AUTOINCREMENT NOT NULL, page_id integer NULL, inv_page_id integer NULL, page_order float NULL);
CREATE TABLE pages_category_links (id integer PRIMARY KEY AUTOINCREMENT NOT NULL, page_id integer NULL, category_id integer NULL, page_order float NULL);
INSERT INTO i18n_locale (name, code, created_at, updated_at) VALUES ('French (fr)', 'fr', 1795359581491, 1795359581491);
INSERT INTO pages (title, slug, body, "order", created_at, updated_at, published_at, locale) VALUES
  ('Hello', 'hello', 'EN body', 1, 1795359581491, 1795359581491, 1795359581491, 'en'),
  ('Bonjour', 'bonjour', 'FR body', 1, 1795359581491, 1795359581491, 1795359581491, 'fr');
INSERT INTO pages_localizations_links (page_id, inv_page_id, page_order) VALUES (1, 2, 1), (2, 1, 1);
`;

describe('i18n on a Strapi-made database [sqlite]', () => {
  let app: TestApp;
  let file: string;
  before(async function () {
    const reference = path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite');
    requireReference(this, 'strapi4-blog.sqlite');
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-i18n-')), 'strapi.db');
    fs.copyFileSync(reference, file);
    const db = new Database(file);
    db.exec(STRAPI_TABLES);
    db.close();
    app = await startApp({
      dialect: 'sqlite',
      sqliteFile: file,
      plugins: [restPlugin, i18nPlugin],
      files: {
        'src/api/page/content-types/page/schema.json': PAGE_SCHEMA,
        'src/api/category/content-types/category/schema.json': CATEGORY_SCHEMA,
        'config/permissions.ts': `export default { public: ['api::page.page.find', 'api::page.page.findOne', 'plugin::i18n.locales.listLocales'] };`,
      },
    });
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("serves Strapi's locales and default as they are", async () => {
    const response = await app.get('/api/i18n/locales');
    expect(response.status).to.equal(200);
    expect(response.body.map(({ code, name, isDefault }: any) => ({ code, name, isDefault }))).to.deep.equal([
      { code: 'en', name: 'English (en)', isDefault: true },
      { code: 'fr', name: 'French (fr)', isDefault: false },
    ]);
    expect(response.body[0].createdAt).to.equal(new Date(1795359581491).toISOString());
  });

  it('serves the localized entries and their links unchanged', async () => {
    const response = await app.get('/api/pages?locale=all&fields[0]=title&fields[1]=locale&populate[localizations][fields][0]=title');
    expect(response.text).to.equal(
      '{"data":[{"id":1,"attributes":{"title":"Hello","locale":"en","localizations":{"data":[{"id":2,"attributes":{"title":"Bonjour"}}]}}},' +
        '{"id":2,"attributes":{"title":"Bonjour","locale":"fr","localizations":{"data":[{"id":1,"attributes":{"title":"Hello"}}]}}}],' +
        '"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":1,"total":2}}}',
    );
    const french = await app.get('/api/pages?locale=fr&fields[0]=title');
    expect(french.body.data.map((entry: any) => entry.attributes.title)).to.deep.equal(['Bonjour']);
  });

  it('schema sync added the locale index, and no column', () => {
    const db = new Database(app.database.sqliteFile!, { readonly: true });
    const indexes = db.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'pages'").all().map((row: any) => row.name);
    const columns = db.prepare('pragma table_info(pages)').all().map((row: any) => row.name);
    db.close();
    expect(indexes).to.include('pages_locale_index');
    expect(columns).to.deep.equal(['id', 'title', 'slug', 'body', 'order', 'created_at', 'updated_at', 'published_at', 'created_by_id', 'updated_by_id', 'locale']);
  });
});

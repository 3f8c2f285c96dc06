import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { bootFolder, stopFolderApp, registryUnreachable } from './app-folder';
import { makeTemplateApp } from './template-app';

/**
 * The official Strapi v4 blog template, `@strapi/template-blog@2.0.5` (the last release on npm; its
 * template.json asks for `@strapi/plugin-graphql ^4.0.5`), made into an app as create-strapi-app 4.26.2 makes one —
 * its default `config/` files and package.json, the template's `template/` folder merged over them, the template's
 * own dependencies installed from npm — and booted on Tessera unchanged. Its bootstrap seeds the content through
 * `strapi.store`, `strapi.query`, the upload service and the entity service (uses the global `strapi`); every
 * answer below is checked against the template's own `data/data.json`.
 */
const TEMPLATE = '@strapi/template-blog@2.0.5';

interface BlogData {
  categories: Array<{ name: string; slug: string }>;
  authors: Array<{ name: string; email: string; avatar: string }>;
  articles: Array<{ title: string; slug: string; category: { id: number }; author: { id: number }; blocks: Array<{ __component: string }> }>;
  global: { siteName: string; siteDescription: string };
  about: { title: string; blocks: Array<{ __component: string }> };
}

describe(`Strapi ecosystem: ${TEMPLATE} on Tessera, unchanged`, function () {
  this.timeout(900_000);
  let dir: string;
  let data: BlogData;

  before(function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    dir = makeTemplateApp(TEMPLATE, 'blog');
    data = JSON.parse(fs.readFileSync(path.join(dir, 'data/data.json'), 'utf8')) as BlogData;
  });
  after(() => dir && fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  for (const dialect of DIALECTS) {
    describe(`[${dialect}]`, () => {
      let app: TestApp;
      before(async () => {
        app = await bootFolder(dir, dialect);
      });
      after(() => stopFolderApp(app));

      it('seeds the categories and authors (with their avatars) of data.json', async () => {
        const categories = await app.get('/api/categories?sort=id');
        expect(categories.status).to.equal(200);
        expect(categories.body.data.map((entry: { attributes: { name: string; slug: string } }) => ({ name: entry.attributes.name, slug: entry.attributes.slug }))).to.deep.equal(data.categories);
        const authors = await app.get('/api/authors?sort=id&populate=avatar');
        expect(authors.body.data.map((entry: { attributes: { name: string; email: string; avatar: { data: { attributes: { name: string; alternativeText: string } } } } }) => [entry.attributes.name, entry.attributes.email, entry.attributes.avatar.data.attributes.name])).to.deep.equal(
          data.authors.map((author) => [author.name, author.email, author.avatar.split('.').shift()]),
        );
      });

      it('seeds the articles, published, with cover, category, author and dynamic-zone blocks', async () => {
        const articles = await app.get('/api/articles?sort=id&populate[cover]=true&populate[category]=true&populate[author]=true&populate[blocks][populate]=*');
        expect(articles.status).to.equal(200);
        expect(articles.body.meta.pagination.total).to.equal(data.articles.length);
        const seen = articles.body.data.map((entry: { attributes: Record<string, any> }) => ({
          title: entry.attributes.title,
          slug: entry.attributes.slug,
          category: entry.attributes.category.data.id,
          author: entry.attributes.author.data.id,
          cover: entry.attributes.cover.data.attributes.name,
          blocks: entry.attributes.blocks.map((block: { __component: string }) => block.__component),
          published: typeof entry.attributes.publishedAt === 'string',
        }));
        expect(seen).to.deep.equal(
          data.articles.map((article) => ({ title: article.title, slug: article.slug, category: article.category.id, author: article.author.id, cover: article.slug, blocks: article.blocks.map((block) => block.__component), published: true })),
        );
        const media = articles.body.data[0].attributes.blocks.find((block: { __component: string }) => block.__component === 'shared.media');
        expect(media.file.data.attributes.mime).to.match(/^image\//);
      });

      it('seeds the global and about single types', async () => {
        const global = await app.get('/api/global?populate=*');
        expect(global.status).to.equal(200);
        expect([global.body.data.attributes.siteName, global.body.data.attributes.siteDescription, global.body.data.attributes.favicon.data.attributes.name]).to.deep.equal([data.global.siteName, data.global.siteDescription, 'favicon']);
        const about = await app.get('/api/about?populate=blocks');
        expect([about.body.data.attributes.title, about.body.data.attributes.blocks.map((block: { __component: string }) => block.__component)]).to.deep.equal([data.about.title, data.about.blocks.map((block) => block.__component)]);
      });

      it('does not seed twice: the second boot reads initHasRun from strapi.store', async () => {
        const database = app.database;
        await app.app.destroy();
        app = await bootFolder(dir, dialect, database);
        const articles = await app.get('/api/articles');
        expect(articles.body.meta.pagination.total).to.equal(data.articles.length);
        const row = await app.app.db.query('strapi::core-store').findOne({ where: { key: 'type_setup_initHasRun' }, select: ['value', 'type'] });
        expect(row && { value: row.value, type: row.type }).to.deep.equal({ value: 'true', type: 'boolean' });
      });
    });
  }
});

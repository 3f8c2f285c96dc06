/**
 * `strapi.entityService.decorate`, as Strapi v4 app and plugin code uses it
 * (Strapi's i18n, strapi-plugin-soft-delete): a decorated `wrapParams`
 * changes every read of the entity service, and REST and GraphQL read through
 * it as Strapi's core API service does, answers cut to what the caller may
 * see; a decorated method calls the one it replaced; decorators stack. The
 * published plugin itself runs in the ecosystem suite (cases/soft-delete.ts).
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { create, exampleFiles, gqlData, startBlog } from './helpers';

const INDEX_JS = `
'use strict';
globalThis.__decoratedCalls = [];
module.exports = {
  bootstrap({ strapi }) {
    // Every read of articles leaves out titles with "Hidden" (as soft-delete leaves out deleted entries).
    strapi.entityService.decorate((previous) => ({
      async wrapParams(params, context) {
        const wrapped = await previous.wrapParams(params, context);
        if (context.uid !== 'api::article.article') return wrapped;
        return { ...wrapped, filters: { $and: [wrapped.filters ?? {}, { title: { $notContains: 'Hidden' } }] } };
      },
    }));
    // A second decorator over the first: methods that call the ones they replace, this being the whole service.
    strapi.entityService.decorate((previous) => ({
      async findOne(uid, id, params) {
        globalThis.__decoratedCalls.push('findOne ' + uid + ' ' + id);
        return previous.findOne.call(this, uid, id, params);
      },
      async create(uid, params) {
        const entry = await previous.create.call(this, uid, params);
        return uid === 'api::article.article' ? { ...entry, title: entry.title.toUpperCase() } : entry;
      },
    }));
  },
};
`;

declare global {
  // eslint-disable-next-line no-var
  var __decoratedCalls: string[];
}

eachDatabase('strapi.entityService.decorate (REST and GraphQL read through the decorators)', (dialect) => {
  let app: TestApp;
  let token: string;
  let hidden: number;
  before(async function () {
    ({ app, token } = await startBlog(dialect, { from: undefined, files: { ...exampleFiles(), 'src/index.js': INDEX_JS } }));
    const made = await app.post('/api/articles', { data: { title: 'Hidden gem', slug: 'hidden-gem' } }, { token });
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    // The create went through the decorated create: its answer is what the decorator returned.
    expect(made.body.data.attributes.title).to.equal('HIDDEN GEM');
    hidden = made.body.data.id;
  });
  after(() => app?.stop());

  it('REST lists, counts and gets by id through the decorated wrapParams and findOne', async () => {
    const list = await app.get('/api/articles?pagination[pageSize]=100&sort=id');
    expect(list.status).to.equal(200);
    const titles = list.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title);
    // 12 seeded, every third a draft: 8 published; the published "Hidden gem" is left out, by the list and by its total.
    expect(titles).to.deep.equal([1, 2, 4, 5, 7, 8, 10, 11].map((n) => `Article ${n}`));
    expect(list.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 100, pageCount: 1, total: 8 });
    expect((await app.get(`/api/articles/${hidden}`)).status).to.equal(404);
    const shown = await app.get(`/api/articles/${list.body.data[0].id}`);
    expect(shown.body.data.attributes.title).to.equal('Article 1');
    expect(globalThis.__decoratedCalls).to.include(`findOne api::article.article ${list.body.data[0].id}`);
    // The stored title is the client's: only the create's answer was changed.
    expect((await app.app.db.query('api::article.article').findOne({ where: { id: hidden } }))?.title).to.equal('Hidden gem');
  });

  it('server code reads through the decorators too; the query engine does not', async () => {
    expect(await app.app.entityService.findMany('api::article.article', { filters: { slug: 'hidden-gem' } })).to.deep.equal([]);
    expect(await app.app.entityService.count('api::article.article', { filters: { slug: 'hidden-gem' } })).to.equal(0);
    expect(await app.app.db.query('api::article.article').count({ where: { slug: 'hidden-gem' } })).to.equal(1);
  });

  it('GraphQL reads through them', async () => {
    const data = await gqlData(app, '{ articles(pagination: { limit: 100 }) { meta { pagination { total } } data { attributes { title } } } }');
    expect(data.articles.meta.pagination.total).to.equal(8);
    expect(data.articles.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.not.include('Hidden gem');
  });

  it("answers keep the caller's limits: private attributes and relations stay out, drafts stay hidden", async () => {
    const writer = await create(app, token, 'writers', { name: 'Cy', email: 'cy@example.com' });
    const page = await create(app, token, 'pages', { title: 'About', slug: 'about', notes: 'internal', reviewer: writer, author: writer });
    const read = await app.get(`/api/pages/${page}?populate=*`);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.body.data.attributes).to.not.have.any.keys('notes', 'reviewer');
    expect(read.body.data.attributes.author.data.id).to.equal(writer);
    const draft = await app.post('/api/articles', { data: { title: 'Draft', slug: 'draft', publishedAt: null } }, { token });
    expect((await app.get(`/api/articles/${draft.body.data.id}`)).status).to.equal(404);
    expect((await app.get('/api/articles?publicationState=preview&filters[slug]=draft')).status).to.equal(403);
  });
});

/**
 * No N+1 over GraphQL: a list with relations two levels deep costs the same
 * fixed number of SQL queries for 5 entries as for 100 — the selection set
 * becomes one populated find (one query per relation per level), and links
 * the query could not populate (the same relation aliased with different
 * arguments) are loaded in one batch per level. Counted on the real
 * connection with `onQuery`.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { create } from './helpers';

const NESTED = `query ($size: Int) { articles(pagination: { pageSize: $size }) {
  data { id attributes {
    title
    category { data { attributes { name articles(pagination: { limit: 3 }) { data { attributes { title } } } } } }
    tags(sort: "name:asc") { data { attributes { name articles { data { id } } } } }
    author { data { attributes { name profile { data { attributes { bio } } } } } }
    cover { data { id } }
    seo { metaTitle }
  } }
  meta { pagination { total } }
} }`;

/** `tags` twice with different arguments: not populated, loaded by the batch loader instead. */
const ALIASED = `query ($size: Int) { articles(pagination: { pageSize: $size }) {
  data { id attributes {
    first: tags(sort: "name:asc") { data { attributes { name } } }
    last: tags(sort: "name:desc") { data { attributes { name } } }
  } }
} }`;

eachDatabase('GraphQL query count of nested lists', (dialect) => {
  let app: TestApp;
  let token: string;

  before(async function () {
    this.timeout(120000);
    // The largest query here loads more entries than the default entry budget, which is not what this suite measures.
    app = await startApp({ dialect, from: EXAMPLE_APP, config: { api: { rest: { defaultLimit: 25, maxLimit: 100, maxPopulatedEntries: 100000 } } } });
    token = await app.fullAccessToken();
    const categories: number[] = [];
    for (const n of [1, 2, 3]) categories.push(await create(app, token, 'categories', { name: `C${n}` }));
    const tags: number[] = [];
    for (const n of [1, 2, 3, 4]) tags.push(await create(app, token, 'tags', { name: `T${n}` }));
    const writers: number[] = [];
    for (const n of [1, 2]) writers.push(await create(app, token, 'writers', { name: `W${n}` }));
    for (const writer of writers) await create(app, token, 'writer-profiles', { bio: `Bio ${writer}`, writer });
    await app.app.db.transaction(async () => {
      for (let n = 0; n < 100; n++) {
        await app.app.entityService.create('api::article.article', {
          data: { title: `Article ${n}`, category: categories[n % 3], tags: [tags[n % 4], tags[(n + 1) % 4]], author: writers[n % 2], seo: { metaTitle: `SEO ${n}` }, publishedAt: new Date() },
        });
      }
    });
  });
  after(() => app?.stop());

  async function countQueries(query: string, size: number): Promise<{ queries: string[]; data: any }> {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
    try {
      const response = await app.post('/graphql', { query, variables: { size } }, { token });
      expect(response.status, response.text.slice(0, 300)).to.equal(200);
      expect(response.body.errors, response.text.slice(0, 300)).to.equal(undefined);
      return { queries: queries.filter((sql) => !/strapi_api_token/.test(sql)), data: response.body.data };
    } finally {
      stop();
    }
  }

  it('100 entries with relations two levels deep cost the same fixed number of queries as 5', async () => {
    const small = await countQueries(NESTED, 5);
    const large = await countQueries(NESTED, 100);
    expect(small.data.articles.data).to.have.length(5);
    expect(large.data.articles.data).to.have.length(100);
    const last = large.data.articles.data[99].attributes;
    expect(last.category.data.attributes.articles.data).to.have.length(3);
    expect(last.tags.data.map((tag: any) => tag.attributes.name)).to.deep.equal(['T1', 'T4']);
    // 50 articles carry T1; without pagination a relation answers its first 10 (Strapi 4.26's default page).
    expect(last.tags.data[0].attributes.articles.data.length).to.equal(10);
    expect(last.author.data.attributes.profile.data.attributes.bio).to.match(/^Bio /);
    expect(last.seo).to.deep.equal({ metaTitle: 'SEO 99' });
    expect(last.cover).to.deep.equal({ data: null });
    // Page; category, tags, author, cover, seo; category.articles, tags.articles, author.profile — plus the count,
    // paid by the first request only: totals are cached per plan until a write.
    // (the second may reuse the first's cached total: never more queries for more entries)
    expect(small.queries.length).to.be.within(9, 11);
    expect(large.queries.length).to.be.within(9, small.queries.length);
  });

  it('without meta there is no count query', async () => {
    const { queries } = await countQueries('query ($size: Int) { articles(pagination: { pageSize: $size }) { data { id } } }', 100);
    expect(queries.length).to.equal(1);
  });

  it('a relation aliased with different arguments is loaded in one batch per alias, whatever the page size', async () => {
    const small = await countQueries(ALIASED, 5);
    const large = await countQueries(ALIASED, 100);
    const entry = large.data.articles.data[0].attributes;
    expect(entry.first.data.map((tag: any) => tag.attributes.name)).to.deep.equal(['T1', 'T2']);
    expect(entry.last.data.map((tag: any) => tag.attributes.name)).to.deep.equal(['T2', 'T1']);
    // The page, then per alias one batch: the parents by id and their tags. The two aliases read the same parents at
    // the same moment: on PostgreSQL and MySQL that is one query (identical reads in flight share it, shared-reads.ts).
    expect(large.queries.length).to.equal(dialect === 'sqlite' ? 5 : 4);
    expect(small.queries.length).to.equal(large.queries.length);
  });
});

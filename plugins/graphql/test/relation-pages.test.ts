/**
 * The page of a to-many relation over GraphQL (issue 22, item 7): without a
 * `pagination` argument Strapi v4.26 answers the first 10 linked entries,
 * and its page rules (link-page.ts) are recorded from a real Strapi 4.26.2
 * in data/strapi-4.26.2-relation-pages.json. Replayed on a copy of the
 * database Strapi filled (SQLite: the reference is a SQLite file), then the
 * same rules on both databases with entries written here, where the page is
 * cut per parent in the one query that loads the relation for all parents.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, SHARED_REFERENCE, eachDatabase, requireReference, startApp, type TestApp } from '@tessera/testing';
import { create, gqlData } from './helpers';

interface Recorded {
  query: string;
  status: number;
  body: string;
}

const RECORDED: { strapi: string; requests: Recorded[] } = JSON.parse(fs.readFileSync(path.join(__dirname, 'data', 'strapi-4.26.2-relation-pages.json'), 'utf8'));

describe('GraphQL relation pages: Strapi 4.26.2 recorded on its own database [sqlite]', () => {
  let app: TestApp;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite') });
  });
  after(() => app?.stop());

  it(`was recorded from Strapi ${RECORDED.strapi}`, () => {
    expect(RECORDED.strapi).to.equal('4.26.2');
    expect(RECORDED.requests.length).to.be.greaterThan(12);
  });

  for (const recorded of RECORDED.requests) {
    it(`same answer: ${recorded.query.slice(0, 110)}`, async () => {
      const response = await app.post('/graphql', { query: recorded.query });
      expect(response.status).to.equal(recorded.status);
      expect(response.body).to.deep.equal(JSON.parse(recorded.body));
    });
  }
});

eachDatabase('GraphQL relation pages', (dialect) => {
  let app: TestApp;
  let token: string;
  /** 13 articles linked to the tag `many`, in link order; 3 to `few`; `none` has none. */
  const tags: Record<string, number> = {};
  const articles: number[] = [];
  let page: number;

  before(async function () {
    this.timeout(120000);
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    for (const name of ['many', 'few', 'none']) tags[name] = await create(app, token, 'tags', { name });
    for (let n = 1; n <= 13; n++) {
      const linked = n <= 3 ? [tags.many, tags.few] : [tags.many];
      articles.push(await create(app, token, 'articles', { title: `Article ${String(n).padStart(2, '0')}`, views: 100 - n, tags: linked }));
    }
    // Link order differs from id order: the tag's list is the order the links were made in.
    const response = await app.put(`/api/tags/${tags.many}`, { data: { articles: [...articles].reverse() } }, { token });
    expect(response.status).to.equal(200);
    const links = Array.from({ length: 12 }, (_, n) => ({ label: `Link ${n + 1}`, url: `https://example.com/${n + 1}` }));
    page = await create(app, token, 'pages', { title: 'Linked', links });
  });
  after(() => app?.stop());

  const articleIds = async (query: string) => {
    const data = await gqlData(app, query, { token });
    return data.tag.data.attributes.articles.data.map((entry: { id: string }) => Number(entry.id));
  };
  const reversed = () => [...articles].reverse();

  it('without pagination: the first 10 in link order (Strapi 4.26 default page), not all 13', async () => {
    expect(await articleIds(`{ tag(id: ${tags.many}) { data { attributes { articles { data { id } } } } } }`)).to.deep.equal(reversed().slice(0, 10));
  });

  it('start/limit and page/pageSize with Strapi\'s rules; the most is amountLimit', async () => {
    const ids = (pagination: string) => articleIds(`{ tag(id: ${tags.many}) { data { attributes { articles(pagination: ${pagination}) { data { id } } } } } }`);
    expect(await ids('{ start: 5 }')).to.deep.equal(reversed().slice(5, 13));
    expect(await ids('{ start: 2, limit: 3 }')).to.deep.equal(reversed().slice(2, 5));
    expect(await ids('{ limit: 0 }')).to.deep.equal(reversed().slice(0, 1));
    expect(await ids('{ limit: -1 }')).to.deep.equal(reversed());
    expect(await ids('{ start: -4, limit: 2 }')).to.deep.equal(reversed().slice(0, 2));
    expect(await ids('{ page: 2 }')).to.deep.equal(reversed().slice(1, 2));
    expect(await ids('{ page: 2, pageSize: 4 }')).to.deep.equal(reversed().slice(4, 8));
    expect(await ids('{ page: 0, pageSize: 4 }')).to.deep.equal(reversed().slice(0, 4));
    expect(await ids('{ pageSize: 20 }')).to.deep.equal(reversed());
  });

  it('page and offset together: a PaginationError on that field, the rest of the answer kept', async () => {
    const response = await app.post('/graphql', { query: `{ tag(id: ${tags.many}) { data { id attributes { articles(pagination: { start: 1, page: 1 }) { data { id } } } } } }` }, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ tag: { data: { id: String(tags.many), attributes: { articles: null } } } });
    expect(response.body.errors).to.have.length(1);
    expect(response.body.errors[0].message).to.equal('Cannot use both page & offset pagination in the same query');
    expect(response.body.errors[0].extensions.error.name).to.equal('PaginationError');
  });

  it('a page per parent for a whole list, with sort and filters, in one query per level', async () => {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
    let data: any;
    try {
      data = await gqlData(
        app,
        `{ tags(sort: "id:asc") { data { id attributes {
          articles(sort: "views:asc", pagination: { limit: 2 }) { data { attributes { views } } }
          recent: articles(filters: { views: { lt: 99 } }) { data { id } }
        } } } }`,
        { token },
      );
    } finally {
      stop();
    }
    const byTag = new Map(data.tags.data.map((entry: any) => [Number(entry.id), entry.attributes]));
    expect((byTag.get(tags.many) as any).articles.data.map((entry: any) => entry.attributes.views)).to.deep.equal([87, 88]);
    expect((byTag.get(tags.few) as any).articles.data.map((entry: any) => entry.attributes.views)).to.deep.equal([97, 98]);
    expect((byTag.get(tags.none) as any).articles.data).to.deep.equal([]);
    expect((byTag.get(tags.many) as any).recent.data.map((entry: any) => Number(entry.id))).to.deep.equal(reversed().filter((id) => id !== articles[0]).slice(0, 10));
    expect((byTag.get(tags.few) as any).recent.data.map((entry: any) => Number(entry.id))).to.deep.equal([articles[1], articles[2]]);
    // The page of tags, then each alias's batch (the parents by id, their articles): never one query per tag. The
    // aliases' identical parent reads run at once, one query on PostgreSQL and MySQL (shared-reads.ts).
    const own = queries.filter((sql) => !/strapi_api_token/.test(sql));
    expect(own.length).to.equal(dialect === 'sqlite' ? 5 : 4);
    expect(own.filter((sql) => /row_number\(\) over \(partition by/i.test(sql))).to.have.length(2);
  });

  it('a nested relation list (populated with its parents) is cut per parent in SQL, whatever the number of parents', async () => {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
    let data: any;
    try {
      data = await gqlData(app, '{ tags(sort: "id:asc") { data { id attributes { articles(pagination: { limit: 3 }) { data { id } } } } } }', { token });
    } finally {
      stop();
    }
    expect(data.tags.data.map((entry: any) => entry.attributes.articles.data.map((article: any) => Number(article.id)))).to.deep.equal([
      reversed().slice(0, 3),
      articles.slice(0, 3),
      [],
    ]);
    const own = queries.filter((sql) => !/strapi_api_token/.test(sql));
    expect(own).to.have.length(2);
    expect(own[1]).to.match(/row_number\(\) over \(partition by/i);
  });

  it('a repeatable component list has the same default page (10 of 12 links)', async () => {
    const data = await gqlData(app, `{ page(id: ${page}) { data { attributes { all: links { label } some: links(pagination: { start: 10 }) { label } } } } }`, { token });
    expect(data.page.data.attributes.all.map((link: { label: string }) => link.label)).to.deep.equal(Array.from({ length: 10 }, (_, n) => `Link ${n + 1}`));
    expect(data.page.data.attributes.some.map((link: { label: string }) => link.label)).to.deep.equal(['Link 11', 'Link 12']);
  });

  it('REST populate takes start and limit per relation, for each parent', async () => {
    const response = await app.get(`/api/tags?sort=id:asc&fields[0]=name&populate[articles][fields][0]=title&populate[articles][start]=1&populate[articles][limit]=2`, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data.map((entry: any) => entry.attributes.articles.data.map((article: any) => article.id))).to.deep.equal([reversed().slice(1, 3), articles.slice(1, 3), []]);
    const bad = await app.get('/api/tags?populate[articles][limit]=-2', { token });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.name).to.equal('ValidationError');
  });
});

/**
 * No N+1: a list with relations populated two levels deep costs one query per
 * populated attribute per level, whatever the page size. Counted on the real
 * connection with `onQuery`.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { create, createMany } from './relations-helpers';

const POPULATE = [
  'populate[category][populate][articles][fields][0]=title',
  'populate[tags][populate][articles][fields][0]=title',
  'populate[author][populate][profile]=*',
  'populate[author][populate][articles][fields][0]=title',
  'populate[cover]=*',
  'populate[seo]=*',
].join('&');

eachDatabase('query count of a populated list', (dialect) => {
  let app: TestApp;
  let token: string;

  before(async function () {
    this.timeout(120000);
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    const categories = await createMany(app, token, 'categories', [1, 2, 3].map((n) => ({ name: `C${n}` })));
    const tags = await createMany(app, token, 'tags', [1, 2, 3, 4].map((n) => ({ name: `T${n}` })));
    const writers = await createMany(app, token, 'writers', [1, 2].map((n) => ({ name: `W${n}` })));
    for (const writer of writers) await create(app, token, 'writer-profiles', { bio: `Bio ${writer}`, writer });
    await app.app.db.transaction(async () => {
      for (let n = 0; n < 100; n++) {
        await app.app.entityService.create('api::article.article', {
          title: `Article ${n}`,
          category: categories[n % 3],
          tags: [tags[n % 4], tags[(n + 1) % 4]],
          author: writers[n % 2],
          seo: { metaTitle: `SEO ${n}` },
        });
      }
    });
  });
  after(() => app.stop());

  async function countQueries(path: string): Promise<{ queries: string[]; body: any }> {
    const queries: string[] = [];
    const stop = app.app.db.connection.onQuery((sql) => queries.push(sql));
    try {
      const response = await app.get(path, { token });
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).to.equal(200);
      return { queries, body: response.body };
    } finally {
      stop();
    }
  }

  it('100 entries with 4 relations populated two levels deep cost the same fixed number of queries as 5 entries', async () => {
    const small = await countQueries(`/api/articles?pagination[pageSize]=5&${POPULATE}`);
    const large = await countQueries(`/api/articles?pagination[pageSize]=100&${POPULATE}`);
    expect(small.body.data).to.have.length(5);
    expect(large.body.data).to.have.length(100);
    const last = large.body.data[99].attributes;
    expect(last.category.data.attributes.articles.data.length).to.be.greaterThan(30);
    expect(last.tags.data).to.have.length(2);
    expect(last.author.data.attributes.profile.data.attributes.bio).to.match(/^Bio /);
    expect(last.seo.metaTitle).to.equal('SEO 99');
    // Page + count, then per level: category, tags, author, cover, seo; category.articles,
    // tags.articles, author.profile, author.articles — plus whatever authenticating the token costs.
    expect(large.queries.length).to.equal(small.queries.length);
    const dataQueries = large.queries.filter((sql) => !/strapi_api_token/.test(sql));
    expect(dataQueries.length).to.equal(11);
  });
});

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
    // The largest list here answers about 19,000 entries across its levels: above the default entry budget, which is not what this suite measures.
    app = await startApp({ dialect, from: EXAMPLE_APP, config: { api: { rest: { defaultLimit: 25, maxLimit: 100, maxPopulatedEntries: 100000 } } } });
    token = await app.fullAccessToken();
    const categories = await createMany(app, token, 'categories', [1, 2, 3].map((n) => ({ name: `C${n}` })));
    const tags = await createMany(app, token, 'tags', [1, 2, 3, 4].map((n) => ({ name: `T${n}` })));
    const writers = await createMany(app, token, 'writers', [1, 2].map((n) => ({ name: `W${n}` })));
    for (const writer of writers) await create(app, token, 'writer-profiles', { bio: `Bio ${writer}`, writer });
    await app.app.db.transaction(async () => {
      for (let n = 0; n < 100; n++) {
        await app.app.entityService.create('api::article.article', {
          data: {
            title: `Article ${n}`,
            category: categories[n % 3],
            tags: [tags[n % 4], tags[(n + 1) % 4]],
            author: writers[n % 2],
            seo: { metaTitle: `SEO ${n}` },
            // Server code's creates are drafts unless they say publishedAt (as in Strapi).
            publishedAt: new Date(),
          },
        });
      }
    });
  });
  after(() => app.stop());

  /** A count of its own; a page that carries its total (`count(*) over ()`) is a page. */
  const isCount = (sql: string) => /^select count\(/i.test(sql) && !/count\(\*\) over \(\)/i.test(sql);
  const withTotal = (sql: string) => /count\(\*\) over \(\)/i.test(sql);
  const pageQueries = (queries: string[]) => queries.filter((sql) => !/strapi_api_token/.test(sql) && !isCount(sql));

  async function countQueries(path: string): Promise<{ queries: string[]; body: any }> {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
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
    // The page, then per level: category, tags, author, cover, seo; category.articles,
    // tags.articles, author.profile, author.articles — plus whatever authenticating the token costs.
    expect(pageQueries(large.queries)).to.have.length(10);
    expect(pageQueries(small.queries)).to.have.length(10);
    // The total is counted once for this plan — by the first page's own statement, or (SQLite, when one index holds the
    // filtered columns: covering-count.ts) by a count of its own — then reused until a write to a type it depends on:
    // the next page is read alone.
    const totals = (queries: string[]) => queries.filter((sql) => isCount(sql) || withTotal(sql)).length;
    expect([totals(small.queries), totals(large.queries)]).to.deep.equal([1, 0]);
    expect(small.queries.filter(isCount)).to.have.length(dialect === 'sqlite' ? 1 : 0);
    expect(large.body.meta.pagination.total).to.equal(small.body.meta.pagination.total);
  });

  it('populates 5 to 8 entries with the same answers per entry, and on MySQL the same SQL text per level', async () => {
    const texts: string[][] = [];
    const answers: unknown[][] = [];
    for (const size of [5, 6, 7, 8]) {
      const { queries, body } = await countQueries(`/api/articles?pagination[pageSize]=${size}&${POPULATE}`);
      texts.push(pageQueries(queries).slice(1)); // the levels, after the page
      answers.push(body.data);
    }
    // MySQL binds each id: its id lists are padded to a power of two (reader.ts), so one text serves 5 to 8 parents.
    if (dialect === 'mysql') for (const text of texts) expect(text).to.deep.equal(texts[0]);
    for (const answer of answers) expect(answer).to.deep.equal(answers[3]!.slice(0, answer.length));
  });

  it('filters that also match entries without a related row ($null through a relation, component or media) add no query', async () => {
    const plain = await countQueries(`/api/articles?pagination[pageSize]=100&${POPULATE}`);
    const filters = 'filters[author][profile][website][$null]=true&filters[tags][name][$null]=false&filters[cover][id][$null]=true&filters[seo][metaTitle][$notNull]=true';
    const filtered = await countQueries(`/api/articles?pagination[pageSize]=100&${filters}&${POPULATE}`);
    expect(filtered.body.data).to.have.length(100);
    expect(filtered.body.meta.pagination.total).to.equal(100);
    expect(pageQueries(filtered.queries)).to.have.length(pageQueries(plain.queries).length);
  });

  it('an unsubscribe called twice removes its own listener only', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const connection = app.app.db.sql;
    const stopFirst = connection.onQuery((sql) => first.push(sql));
    const stopSecond = connection.onQuery((sql) => second.push(sql));
    stopFirst();
    stopFirst();
    await app.get('/api/categories', { token });
    stopSecond();
    expect(first).to.deep.equal([]);
    expect(second.length).to.be.greaterThan(0);
    // The same function subscribed twice is two subscriptions.
    const both: string[] = [];
    const listener = (sql: string) => both.push(sql);
    const stopOne = connection.onQuery(listener);
    const stopOther = connection.onQuery(listener);
    stopOne();
    stopOne();
    await app.get('/api/categories', { token });
    stopOther();
    expect(both.length).to.be.greaterThan(0);
    const counted = both.length;
    await app.get('/api/categories', { token });
    expect(both.length).to.equal(counted);
  });
});

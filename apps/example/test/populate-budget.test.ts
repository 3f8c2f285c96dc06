import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { entriesIn, withSeed } from './seeded';

/**
 * The entry budget (`api.rest.maxPopulatedEntries`, issue 23 finding 2): one
 * anonymous URL of 150 characters — tags → articles → tags … six levels, 100
 * per page — answered 31 MB on the example's seed, and 500 after 44 s at
 * 2.8 GB once every article had four tags. The budget counts each entry as
 * often as the answer shows it, level by level, and answers 400 naming the
 * limit before reading the level that would go over.
 */
const SIX_LEVELS = 'populate[tags][populate][articles][populate][tags][populate][articles][populate][tags][populate][articles]=true';
const AMPLIFICATION = `/api/articles?${SIX_LEVELS}&pagination[pageSize]=100`;
/** Three levels under the page: within the default budget on the seed. */
const THREE_LEVELS = '/api/articles?populate[tags][populate][articles][populate][tags]=true&pagination[pageSize]=100';
/** Two levels (GraphQL's depth limit of 10 allows no more; relation pages as large as REST's lists), and the same populate in REST. */
const TWO_LEVELS = '/api/articles?populate[tags][populate][articles][fields][0]=title&fields[0]=title&pagination[pageSize]=100';
const TWO_LEVELS_GRAPHQL =
  'articles(pagination: { pageSize: 100 }) { data { id attributes { title tags(pagination: { limit: 100 }) { data { id attributes { articles(pagination: { limit: 100 }) { data { id attributes { title } } } } } } } } }';

function budgetError(limit: number) {
  return {
    data: null,
    error: {
      status: 400,
      name: 'ValidationError',
      message: `Too many entries: this request would return more than ${limit} entries across its populate levels (maxPopulatedEntries). Populate fewer levels or relations, or ask for a smaller page`,
      details: { maxPopulatedEntries: limit },
    },
  };
}

/**
 * The six-level URL is the default budget's 400. That it is refused before the levels are read is a matter of
 * work, not of a clock a busy machine changes: `npm run bench` measures the time.
 */
async function expectQuick400(app: TestApp): Promise<void> {
  const response = await app.get(AMPLIFICATION);
  expect(response.body).to.deep.equal(budgetError(10000));
}

/** The same example app and database with another entry budget. */
function withBudget(app: TestApp, limit: unknown): Promise<TestApp> {
  return startApp({ dialect: app.database.dialect, from: EXAMPLE_APP, database: app.database, config: { api: { rest: { defaultLimit: 25, maxLimit: 100, maxPopulatedEntries: limit } } } });
}

eachDatabase('populate entry budget (example app, seeded)', (dialect) => {
  let app: TestApp;
  let token: string;
  /** Entries the three-level list shows (counted in its JSON), and the distinct entries behind them. */
  let shown: number;
  let others: TestApp[] = [];

  before(async function () {
    app = await withSeed(() => startApp({ dialect, from: EXAMPLE_APP }));
    token = await app.fullAccessToken();
    const response = await app.get(THREE_LEVELS);
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    shown = entriesIn(response.body.data);
  });
  afterEach(async () => {
    for (const other of others) await other.stop({ keepDatabase: true });
    others = [];
  });
  after(() => app?.stop());

  it('answers the six-level URL with a 400 naming the limit, as fast as a plain page', async () => {
    await expectQuick400(app);
    // With a token or a JWT-sized page it is the same answer: the budget is per answer, not per caller.
    expect((await app.get(AMPLIFICATION, { token })).body).to.deep.equal(budgetError(10000));
  });

  it('counts every appearance of a shared entry: the budget is exactly what the answer shows', async () => {
    // Far fewer distinct rows than appearances: tags and articles are shared by many parents.
    expect(shown).to.be.above(400);
    const exact = await withBudget(app, shown);
    const short = await withBudget(app, shown - 1);
    others.push(exact, short);
    const allowed = await exact.get(THREE_LEVELS);
    expect(allowed.status).to.equal(200);
    expect(entriesIn(allowed.body.data)).to.equal(shown);
    expect((await short.get(THREE_LEVELS)).body).to.deep.equal(budgetError(shown - 1));
    // Strings of digits (an environment variable) are read as numbers.
    const fromEnv = await withBudget(app, String(shown));
    others.push(fromEnv);
    expect((await fromEnv.get(THREE_LEVELS)).status).to.equal(200);
  });

  it('counts components, dynamic-zone entries and their relations too', async () => {
    const path = '/api/pages/1?populate[links]=true&populate[seo]=true&populate[content][populate]=*';
    const full = await app.get(path);
    expect(full.status).to.equal(200);
    const count = entriesIn(full.body.data);
    // The page, its seo, two links, three dynamic-zone entries, the feature's link and article.
    expect(count).to.equal(9);
    const short = await withBudget(app, count - 1);
    others.push(short);
    expect((await short.get(path)).body).to.deep.equal(budgetError(count - 1));
  });

  it('bounds GraphQL the same way, one budget for the whole document', async () => {
    const rest = await app.get(TWO_LEVELS);
    const twoLevels = entriesIn(rest.body.data);
    const exact = await withBudget(app, twoLevels);
    const short = await withBudget(app, twoLevels - 1);
    others.push(exact, short);
    const one = await exact.post('/graphql', { query: `{ ${TWO_LEVELS_GRAPHQL} }` });
    expect(one.status, one.text.slice(0, 300)).to.equal(200);
    expect(one.body.errors).to.equal(undefined);
    expect(one.body.data.articles.data).to.have.length(25);
    const over = await short.post('/graphql', { query: `{ ${TWO_LEVELS_GRAPHQL} }` });
    expect(over.body.errors.map((error: { message: string }) => error.message)).to.deep.equal([budgetError(twoLevels - 1).error.message]);
    expect(over.body.errors[0].extensions.error).to.deep.include({ name: 'ValidationError', details: { maxPopulatedEntries: twoLevels - 1 } });
    // Two top-level fields, each within the budget alone: together they are over it (both fields run at once, so
    // whichever reads a level past the budget fails — one or both).
    const two = await exact.post('/graphql', { query: `{ first: ${TWO_LEVELS_GRAPHQL} second: ${TWO_LEVELS_GRAPHQL} }` });
    const messages = new Set(two.body.errors.map((error: { message: string }) => error.message));
    expect([...messages]).to.deep.equal([budgetError(twoLevels).error.message]);
    // REST requests each have their own.
    expect((await exact.get(TWO_LEVELS)).status).to.equal(200);
    expect((await exact.get(TWO_LEVELS)).status).to.equal(200);
  });

  it('counts the links GraphQL loads later (aliased relations) once per parent appearance, parents not again', async () => {
    // \`b\` has arguments of its own, so it is not populated with the list: the batch loader reads it per level, for
    // every article — and an article under several tags shows its \`b\` under each.
    const query = `{ tags(pagination: { pageSize: 100 }) { data { id attributes { articles(pagination: { limit: 100 }) { data { id attributes {
      a: tags(pagination: { limit: 100 }) { data { id } } b: tags(filters: { name: { startsWith: "d" } }, pagination: { limit: 100 }) { data { id } } } } } } } } }`;
    const full = await app.post('/graphql', { query });
    expect(full.status, full.text.slice(0, 300)).to.equal(200);
    expect(full.body.errors).to.equal(undefined);
    const count = entriesIn(full.body.data.tags.data);
    const exact = await withBudget(app, count);
    const short = await withBudget(app, count - 1);
    others.push(exact, short);
    const allowed = await exact.post('/graphql', { query });
    expect(allowed.body.errors).to.equal(undefined);
    expect(allowed.body.data).to.deep.equal(full.body.data);
    const over = await short.post('/graphql', { query });
    expect(new Set(over.body.errors.map((error: { message: string }) => error.message))).to.deep.equal(new Set([budgetError(count - 1).error.message]));
  });

  it('bounds a write’s answer too, and the write is undone', async () => {
    const before = (await app.get('/api/articles?publicationState=preview&pagination[pageSize]=1', { token })).body.meta.pagination.total;
    const tags = (await app.get('/api/tags?pagination[pageSize]=100')).body.data.map((tag: { id: number }) => tag.id);
    const response = await app.post(`/api/articles?${SIX_LEVELS}`, { data: { title: 'Budget', tags } }, { token });
    expect(response.body).to.deep.equal(budgetError(10000));
    const after = (await app.get('/api/articles?publicationState=preview&pagination[pageSize]=1', { token })).body.meta.pagination.total;
    expect(after).to.equal(before);
  });

  it('refuses a limit that is not a positive integer at boot', async () => {
    for (const limit of [0, -5, 1.5, 'many']) {
      const error = await withBudget(app, limit).then(
        (started) => {
          others.push(started);
          return new Error('expected the boot to fail');
        },
        (failure: Error) => failure,
      );
      expect(error.message, String(limit)).to.contain(`api.rest.maxPopulatedEntries must be a positive integer (got ${JSON.stringify(limit)})`);
    }
  });

  it('answers the reviewer’s set-up (four tags on every article) with the same quick 400', async function () {
    const tags = (await app.get('/api/tags?pagination[pageSize]=100')).body.data.map((tag: { id: number }) => tag.id) as number[];
    const articles = (await app.get('/api/articles?publicationState=preview&pagination[pageSize]=100&fields[0]=id', { token })).body.data as Array<{ id: number }>;
    for (const [index, article] of articles.entries()) {
      const four = [0, 1, 2, 3].map((offset) => tags[(index + offset) % tags.length]);
      expect((await app.put(`/api/articles/${article.id}`, { data: { tags: four } }, { token })).status).to.equal(200);
    }
    await expectQuick400(app);
  });
});

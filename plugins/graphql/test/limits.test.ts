/**
 * Limits are on by default: depth, page sizes (amountLimit), aliases and
 * fields per operation, cyclic fragments, batches and document size — each
 * refused with a 400 (or clamped) before anything runs; introspection and
 * the explorer are off in production unless configured.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp, type TestDialect, inProduction } from '@tessera/testing';
import { gql, gqlData, startBlog } from './helpers';

function graphqlConfig(config: Record<string, unknown>) {
  return { plugins: { graphql: { enabled: true, config } } };
}

/** Boots with NODE_ENV=production (read at boot), then puts it back. */
async function startProduction(dialect: TestDialect, config: Record<string, unknown> = {}): Promise<TestApp> {
  return inProduction(() => startApp({ dialect, from: EXAMPLE_APP, config: graphqlConfig(config) }));
}

function validationError(response: { status: number; body: any }): string {
  expect(response.status).to.equal(400);
  expect(response.body.data).to.equal(undefined);
  expect(response.body.errors[0].extensions.code).to.be.oneOf(['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED']);
  return response.body.errors[0].message;
}

eachDatabase('GraphQL limits', (dialect) => {
  let app: TestApp;
  before(async function () {
    ({ app } = await startBlog(dialect));
  });
  after(() => app?.stop());

  it('depth: 10 levels pass, 11 are refused (depthLimit)', async () => {
    // articles(1) data(2) attributes(3) category(4) data(5) attributes(6) articles(7) data(8) attributes(9) title(10)
    const ten = '{ articles { data { attributes { category { data { attributes { articles { data { attributes { title } } } } } } } } } }';
    expect((await gql(app, ten)).status).to.equal(200);
    const eleven = '{ articles { data { attributes { category { data { attributes { articles { data { attributes { tags { data { id } } } } } } } } } } } }';
    expect(validationError(await gql(app, eleven))).to.equal("'' exceeds maximum operation depth of 10");
  });

  it('amount: page sizes and relation pages above amountLimit (100) are clamped', async () => {
    const data = await gqlData(app, '{ articles(pagination: { pageSize: 1000 }) { meta { pagination { pageSize } } } tags(pagination: { limit: 5000 }) { meta { pagination { pageSize } } } }');
    expect(data.articles.meta.pagination.pageSize).to.equal(100);
    expect(data.tags.meta.pagination.pageSize).to.equal(100);
  });

  it('aliases: 30 per operation pass, 31 are refused', async () => {
    const aliases = (count: number) => `{ ${Array.from({ length: count }, (_, index) => `a${index}: __typename`).join(' ')} }`;
    expect((await gql(app, aliases(30))).status).to.equal(200);
    expect(validationError(await gql(app, aliases(31)))).to.equal('The operation uses more than 30 aliases');
  });

  it('fields: fragments are counted where they are spread (1,000 per operation)', async () => {
    const fragment = `fragment F on Query { ${'__typename '.repeat(50)} }`;
    const spreads = (count: number) => `{ ${'...F '.repeat(count)} } ${fragment}`;
    expect((await gql(app, spreads(19))).status).to.equal(200);
    expect(validationError(await gql(app, spreads(21)))).to.equal('The operation selects more than 1000 fields');
  });

  it('a document of fragments each spreading the one before twice (2^29 fields in 1.6 KB) is refused at once', async () => {
    // graphql-depth-limit walked every spread in full: this held the process for minutes.
    let fragments = 'fragment F0 on ArticleEntity { id }';
    for (let index = 1; index < 30; index++) fragments += ` fragment F${index} on ArticleEntity { ...F${index - 1} ...F${index - 1} }`;
    // 2^29 spreads walked in full would run far past the test's timeout; the answer shows the count stopped at the limit.
    const response = await gql(app, `{ articles { data { ...F29 } } } ${fragments}`);
    expect(validationError(response)).to.equal('The operation selects more than 1000 fields');
  });

  it('past 100 depth errors, graphql-js stops validating: a 400 with its message (was a 500)', async () => {
    const deep = 'category { data { attributes { articles { data { attributes { tags { data { id } } } } } } } }';
    const query = `{ articles { data { attributes { ${`... on Article { ${deep} } `.repeat(101)}} } } }`;
    const response = await gql(app, query);
    expect(response.status).to.equal(400);
    const messages = (response.body.errors ?? []).map((error: { message: string }) => error.message);
    expect(messages).to.deep.equal([...Array(100).fill("'' exceeds maximum operation depth of 10"), 'Too many validation errors, error limit reached. Validation aborted.']);
  });

  it('cyclic fragments are a 400, never a stack overflow', async () => {
    const message = validationError(await gql(app, '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'));
    expect(message).to.equal('Cannot spread fragment "A" within itself via "B".');
  });

  it('variables nested deeper than 64 input levels are a 400 naming the variable, never a stack overflow', async () => {
    const query = 'query ($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }';
    const nested = (levels: number) => JSON.parse(`${'{"and":['.repeat(levels)}{}${']}'.repeat(levels)}`);
    // 32 operators are 64 input levels: within the budget, so the filter compiler answers (it allows 12).
    const within = await gql(app, query, { variables: { f: nested(32) } });
    expect(within.status).to.equal(200);
    expect(within.body.errors?.[0].message).to.equal('Invalid parameter filters: nested too deeply');
    expect(validationError(await gql(app, query, { variables: { f: nested(33) } }))).to.equal('Variable "$f" is nested more than 64 levels deep');
    expect(validationError(await gql(app, query, { variables: { f: nested(2000) } }))).to.equal('Variable "$f" is nested more than 64 levels deep');
    // A json attribute's value is a scalar, not input types: it passes this check (and is refused here for the public role).
    const meta = JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`);
    const update = await gql(app, 'mutation ($d: ArticleInput!) { updateArticle(id: 1, data: $d) { data { id } } }', { variables: { d: { meta } } });
    expect(update.status).to.equal(200);
    expect(update.body.errors?.[0].extensions?.code).to.equal('FORBIDDEN');
  });

  it('a document nested past what the parser can recurse is a 400', async () => {
    const query = `{ articles(filters: { id: { in: ${'['.repeat(9000)}1${']'.repeat(9000)} } }) { data { id } } }`;
    expect(validationError(await gql(app, query))).to.equal('The query is nested too deeply');
  });

  it('batched arrays are refused unless enabled', async () => {
    const response = await app.post('/graphql', [{ query: '{ tags { data { id } } }' }]);
    expect(validationError(response)).to.equal('Batched requests are not enabled on this endpoint');
  });

  it('a document larger than maxDocumentSize (20,000 characters) is refused before parsing', async () => {
    const query = `{ tags { data { id } } } # ${'x'.repeat(20000)}`;
    expect(validationError(await gql(app, query))).to.equal('The query is larger than 20000 characters');
  });

  it('introspection and the explorer are on outside production', async () => {
    expect((await gqlData(app, '{ __schema { queryType { name } } }')).__schema.queryType.name).to.equal('Query');
    const page = await app.get('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.text).to.contain('<div id="graphiql">').and.contain('/graphql/explorer/graphiql.js').and.not.match(/<script>[^<]/);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css', 'start.js', 'page.css']) {
      const response = await app.get(`/graphql/explorer/${asset}`);
      expect(response.status, asset).to.equal(200);
      expect(response.text.length, asset).to.be.greaterThan(50);
    }
    expect((await app.get('/graphql/explorer/nope.js')).status).to.equal(404);
  });

  describe('configured', () => {
    let configured: TestApp;
    let production: TestApp;
    before(async function () {
      configured = await startApp({
        dialect,
        from: EXAMPLE_APP,
        config: graphqlConfig({ endpoint: '/gql', depthLimit: 4, amountLimit: 3, defaultLimit: 2, maxAliases: 2, batchRequests: true, maxBatchSize: 2, apolloServer: { tracing: true } }),
      });
      production = await startProduction(dialect);
    });
    after(async () => {
      await configured?.stop();
      await production?.stop();
    });

    it('every limit follows config/plugins.ts; batches run each operation', async () => {
      const post = (body: unknown) => configured.post('/gql', body);
      expect((await configured.post('/graphql', { query: '{ __typename }' })).status).to.equal(404);
      expect((await post({ query: '{ tags { data { attributes { articles { data { id } } } } } }' })).status).to.equal(400);
      expect((await post({ query: '{ a: __typename b: __typename c: __typename }' })).status).to.equal(400);
      const sizes = await post({ query: '{ tags { meta { pagination { pageSize } } } writers(pagination: { pageSize: 50 }) { meta { pagination { pageSize } } } }' });
      expect(sizes.body.data).to.deep.equal({ tags: { meta: { pagination: { pageSize: 2 } } }, writers: { meta: { pagination: { pageSize: 3 } } } });
      const batch = await post([{ query: '{ a: __typename }' }, { query: 'query ($n: Int) { tags(pagination: { pageSize: $n }) { data { id } } }', variables: { n: 1 } }]);
      expect(batch.status).to.equal(200);
      expect(batch.body).to.deep.equal([{ data: { a: 'Query' } }, { data: { tags: { data: [] } } }]);
      expect((await post([{ query: '{ __typename }' }, { query: '{ __typename }' }, { query: '{ __typename }' }])).status).to.equal(400);
    });

    it('in production: no introspection, no explorer, unless configured', async () => {
      const introspection = await gql(production, '{ __schema { queryType { name } } }');
      expect(validationError(introspection)).to.match(/introspection/);
      const page = await production.get('/graphql', { headers: { accept: 'text/html' } });
      expect(page.headers.get('content-type')).to.match(/^application\/json/);
      expect((await production.get('/graphql/explorer/graphiql.js')).status).to.equal(404);
      const opened = await startProduction(dialect, { introspection: true, playgroundAlways: true });
      try {
        expect((await gqlData(opened, '{ __schema { queryType { name } } }')).__schema.queryType.name).to.equal('Query');
        expect((await opened.get('/graphql', { headers: { accept: 'text/html' } })).text).to.contain('graphiql');
      } finally {
        await opened.stop();
      }
    });
  });
});

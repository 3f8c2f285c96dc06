/**
 * The gate, table-driven over every kind of caller (core auth/caller.ts): the public caller, a user of the
 * authenticated role, read-only, full-access and custom API tokens, and trusted server code. Each row is one
 * decision; REST and GraphQL must both take it, each answering a refusal in its own words (REST: Strapi's route
 * chain, a 403 "Forbidden" envelope; GraphQL: Strapi's resolver error, "Forbidden access" on the field, as
 * recorded in strapi-authorization.json). Server code sends no request: it is asked of the same gates the
 * route and the resolver run, and its service call writes.
 */
import { expect } from 'chai';
import { Caller, gatesOf } from '@tessera/core';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { FORBIDDEN, register, startUpApp } from './fixture';

const ARTICLE = 'api::article.article';
const ARTICLE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
};

const GRAPHQL_FORBIDDEN = (field: string) => ({
  errors: [{ message: 'Forbidden access', extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } }],
  data: { [field]: null },
});

type Operation = 'find' | 'create';
type CallerName = 'public' | 'authenticated role' | 'read-only token' | 'full-access token' | 'custom token (find only)' | 'server';

/** The decision each caller gets for each operation: true when it may. */
const TABLE: Array<[CallerName, Operation, boolean]> = [
  ['public', 'find', true],
  ['public', 'create', false],
  ['authenticated role', 'find', true],
  ['authenticated role', 'create', true],
  ['read-only token', 'find', true],
  ['read-only token', 'create', false],
  ['full-access token', 'find', true],
  ['full-access token', 'create', true],
  ['custom token (find only)', 'find', true],
  ['custom token (find only)', 'create', false],
  ['server', 'find', true],
  ['server', 'create', true],
];

/** The route and the resolver each operation runs, by the names the app lists its gates under (gatesOf). */
const GATES: Record<Operation, { rest: string; graphql: string }> = {
  find: { rest: 'GET /api/articles', graphql: 'graphql Query.articles' },
  create: { rest: 'POST /api/articles', graphql: 'graphql Mutation.createArticle' },
};

eachDatabase('the gate: every kind of caller, the same decision over REST and GraphQL', (dialect) => {
  let app: TestApp;
  const tokens = new Map<CallerName, string | undefined>();
  before(async () => {
    app = await startUpApp(dialect, {
      graphql: true,
      permissions: { public: [`${ARTICLE}.find`], authenticated: [`${ARTICLE}.find`, `${ARTICLE}.create`] },
      files: { 'src/api/article/content-types/article/schema.json': ARTICLE_SCHEMA },
    });
    tokens.set('public', undefined);
    tokens.set('authenticated role', (await register(app, 'gated')).jwt);
    tokens.set('read-only token', (await app.app.apiTokens.create({ name: 'read-only', type: 'read-only' })).accessKey);
    tokens.set('full-access token', await app.fullAccessToken());
    tokens.set('custom token (find only)', (await app.app.apiTokens.create({ name: 'custom', type: 'custom', permissions: [`${ARTICLE}.find`] })).accessKey);
  });
  after(() => app?.stop());

  const rest = (operation: Operation, token: string | undefined) =>
    operation === 'find' ? app.get('/api/articles', { token }) : app.post('/api/articles', { data: { title: 'by REST' } }, { token });
  const graphql = (operation: Operation, token: string | undefined) =>
    app.post('/graphql', { query: operation === 'find' ? '{ articles { data { id } } }' : 'mutation { createArticle(data: { title: "by GraphQL" }) { data { id } } }' }, { token });

  for (const [name, operation, allowed] of TABLE) {
    if (name === 'server') continue;
    it(`${name}, ${operation}: ${allowed ? 'allowed' : 'refused'} by REST and GraphQL, each in its own words`, async () => {
      const token = tokens.get(name);
      const [viaRest, viaGraphql] = [await rest(operation, token), await graphql(operation, token)];
      if (allowed) {
        expect(viaRest.status).to.equal(200);
        expect(viaRest.body.data).to.not.equal(null);
        expect(viaGraphql.body.errors).to.equal(undefined);
        expect(viaGraphql.body.data[operation === 'find' ? 'articles' : 'createArticle'].data).to.not.equal(null);
      } else {
        expect([viaRest.status, viaRest.body]).to.deep.equal([403, FORBIDDEN]);
        expect([viaGraphql.status, viaGraphql.body]).to.deep.equal([200, GRAPHQL_FORBIDDEN('createArticle')]);
      }
    });
  }

  it('server code: the route and the resolver gates let it through, and its service call writes', async () => {
    const gates = gatesOf(app.app);
    for (const [name, operation, allowed] of TABLE) {
      if (name !== 'server') continue;
      for (const where of [GATES[operation].rest, GATES[operation].graphql]) expect([where, gates.get(where)!.refusal(Caller.server)]).to.deep.equal([where, allowed ? undefined : 'forbidden']);
    }
    const created = await app.app.service<{ create(params: { data: unknown }): Promise<{ id: number }> }>(ARTICLE)!.create({ data: { title: 'by server code' } });
    expect(created.id).to.be.a('number');
  });

  it("operations take a Caller, or the request's ctx.state.auth as app code passes it (docs/graphql.md)", async () => {
    const anonymous = await app.app.authenticate(undefined);
    const preview = { publicationState: 'preview' };
    // The same caller either way: the public one may not see drafts, server code may.
    for (const context of [{ auth: anonymous, params: preview }, { caller: Caller.of(anonymous), params: preview }]) {
      const refused = await app.app.contentOperations.find(ARTICLE, context).then(() => 'read', (error: Error) => error.name);
      expect(refused).to.equal('ForbiddenError');
    }
    expect((await app.app.contentOperations.find(ARTICLE, { caller: Caller.server, params: preview })).results.length).to.be.greaterThan(0);
  });

  it('the gates REST and GraphQL run decide alike for every caller of the table (asked directly, by caller kind)', async () => {
    const gates = gatesOf(app.app);
    const kinds: Record<string, string> = {};
    for (const [name] of TABLE) {
      if (name === 'server') {
        kinds[name] = Caller.server.kind;
        continue;
      }
      const token = tokens.get(name);
      const state = await app.app.authenticate(token === undefined ? undefined : `Bearer ${token}`);
      const caller = Caller.of(state);
      kinds[name] = caller.kind;
      for (const operation of ['find', 'create'] as const) {
        const restGate = gates.get(GATES[operation].rest)!;
        const graphqlGate = gates.get(GATES[operation].graphql)!;
        expect([name, operation, graphqlGate.refusal(caller)]).to.deep.equal([name, operation, restGate.refusal(caller)]);
      }
    }
    expect(kinds).to.deep.equal({
      public: 'public',
      'authenticated role': 'user',
      'read-only token': 'api-token',
      'full-access token': 'api-token',
      'custom token (find only)': 'api-token',
      server: 'server',
    });
  });
});

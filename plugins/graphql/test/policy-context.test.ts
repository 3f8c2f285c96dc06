/**
 * Issue 37: policies get Strapi's policy context (`createPolicyContext`), on
 * every transport, through the kernel's one gate (auth/gate.ts): the Koa context's own
 * members (`state`, `request`, `params`, …) with `type` and `is(type)` on a
 * route, the resolver's arguments with `state` and `http` in GraphQL. A policy
 * written as Strapi's documentation writes one — `policyContext.state.user`,
 * `policyContext.is('graphql')` — runs unchanged, and the same policy decides
 * the same way on a REST route and on a GraphQL field.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import { gql } from './helpers';

const FILES = {
  'config/plugins.js': 'module.exports = { graphql: { enabled: true } };',
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  },
  // As Strapi's documentation writes a policy: (policyContext, config, { strapi }).
  'src/policies/strapi-shape.js': `
module.exports = (policyContext, config, { strapi }) => {
  policyContext.state.seen = {
    type: policyContext.type,
    isKoa: policyContext.is('koa'),
    isGraphql: policyContext.is('graphql'),
    strategy: policyContext.state.auth.strategy.name,
    header: policyContext.request ? policyContext.request.header['x-probe'] : policyContext.http.get('x-probe'),
    id: policyContext.params ? policyContext.params.id : policyContext.args.id,
    strapi: typeof strapi.plugin,
  };
  return policyContext.state.seen.header !== 'refuse';
};
`,
  'src/api/probe/controllers/probe.js': 'module.exports = { show(ctx) { return ctx.state.seen; } };',
  'src/api/probe/routes/probe.js': `
module.exports = { routes: [{ method: 'GET', path: '/probe/:id', handler: 'probe.show', config: { auth: false, policies: ['global::strapi-shape'] } }] };
`,
  'src/index.js': `
module.exports = {
  register({ strapi }) {
    strapi.plugin('graphql').service('extension').use({
      typeDefs: 'type ProbeSeen { type: String, isKoa: Boolean, isGraphql: Boolean, strategy: String, header: String, id: String, strapi: String } extend type Query { probe(id: String): ProbeSeen }',
      resolvers: { Query: { probe: (parent, args, context) => context.state.seen } },
      resolversConfig: { 'Query.probe': { auth: false, policies: ['global::strapi-shape'] } },
    });
  },
};
`,
};

describe("policies: Strapi's policy context on REST and GraphQL, through one gate [sqlite]", () => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: FILES });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it("a route's policy gets the Koa context's own members, type 'koa' and is()", async () => {
    const response = await app.get('/api/probe/7', { headers: { 'x-probe': 'rest' } });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ type: 'koa', isKoa: true, isGraphql: false, strategy: 'public', header: 'rest', id: '7', strapi: 'function' });
  });

  it("a resolver's policy gets the resolver's arguments, state and http, type 'graphql' and is()", async () => {
    const response = await gql(app, '{ probe(id: "8") { type isKoa isGraphql strategy header id strapi } }', { token, headers: { 'x-probe': 'graphql' } });
    expect(response.body).to.deep.equal({ data: { probe: { type: 'graphql', isKoa: false, isGraphql: true, strategy: 'api-token', header: 'graphql', id: '8', strapi: 'function' } } });
  });

  it('the same policy refuses on both transports, each in its own words', async () => {
    const rest = await app.get('/api/probe/7', { headers: { 'x-probe': 'refuse' } });
    expect([rest.status, rest.body.error]).to.deep.equal([403, { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} }]);
    const graphql = await gql(app, '{ probe(id: "8") { type } }', { token, headers: { 'x-probe': 'refuse' } });
    expect(graphql.body.data).to.deep.equal({ probe: null });
    expect((graphql.body.errors ?? []).map((error) => [error.message, error.extensions?.error?.name])).to.deep.equal([['Policy Failed', 'PolicyError']]);
  });
});

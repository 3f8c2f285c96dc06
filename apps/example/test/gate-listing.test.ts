/**
 * Every route and every GraphQL resolver of the example app, with the gate it runs (core auth/gate.ts, listed by
 * `gatesOf`): the example's APIs, users-permissions, upload and GraphQL, and a local plugin in Strapi's plugin
 * format (`strapi-server.js`, its own content-API route). The listing is held to gates.json (regenerate with
 * RECORD_GATES=1 after a deliberate change, and read the diff): what each route or resolver requires, and its
 * policies.
 *
 * Then one rule is added to the gate itself (refuse read-only API tokens wherever a requirement applies), and
 * reaches a REST route, a GraphQL resolver and the plugins' routes at once, each answering in its own words,
 * because every transport asks the same gate. The rule is put on `Gate.prototype.refusal` for the test and taken
 * off after: the one place a rule for every transport is written.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { Gate, gatesOf, routeTable, type Caller, type GateSummary } from '@tessera/core';
import { eachDatabase, EXAMPLE_APP, startApp, type TestApp } from '@tessera/testing';

const RECORDED = path.join(__dirname, 'gates.json');

/** A plugin as Strapi's plugin format writes one (a local plugin, resolved from `config/plugins`). */
const GATED_PLUGIN = `module.exports = () => ({
  controllers: { ping: () => ({ async find(ctx) { ctx.body = { pong: true }; } }) },
  routes: { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/ping', handler: 'ping.find', config: {} }] } },
});
`;

/** The example's config/plugins.ts with the local plugin added. */
function pluginsConfig(): string {
  const source = fs.readFileSync(path.join(EXAMPLE_APP, 'config/plugins.ts'), 'utf8');
  const opening = 'export default ({ env }) => ({';
  if (!source.includes(opening)) throw new Error('the example config/plugins.ts changed shape: update this fixture');
  return source.replace(opening, `${opening}\n  gated: { enabled: true, resolve: './src/plugins/gated' },`);
}

/** One line per gate: what it requires (and its policies). */
function describeGate(summary: GateSummary): string {
  const requirement = summary.actions.length > 0 ? `${summary.requirement}: ${summary.actions.join(', ')}` : summary.requirement;
  return summary.policies.length > 0 ? `${requirement}; policies: ${summary.policies.join(', ')}` : requirement;
}

const READ_ONLY_REFUSED = (caller: Caller) => caller.tokenType === 'read-only';

eachDatabase('every route and resolver of the example app runs the one gate', (dialect) => {
  let app: TestApp;
  let readOnly: string;
  before(async function () {
    app = await startApp({ dialect, from: EXAMPLE_APP, files: { 'config/plugins.ts': pluginsConfig(), 'src/plugins/gated/strapi-server.js': GATED_PLUGIN } });
    readOnly = (await app.app.apiTokens.create({ name: 'reader', type: 'read-only' })).accessKey;
  });
  after(() => app?.stop());

  /** Query and Mutation fields of the served schema, as `graphql Query.x` (the names gates are listed under). */
  async function resolverNames(): Promise<string[]> {
    const query = '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }';
    const { body } = await app.post('/graphql', { query }, { token: await app.fullAccessToken() });
    const schema = body.data.__schema as { queryType: { fields: Array<{ name: string }> }; mutationType: { fields: Array<{ name: string }> } };
    return [...schema.queryType.fields.map((field) => `graphql Query.${field.name}`), ...schema.mutationType.fields.map((field) => `graphql Mutation.${field.name}`)];
  }

  it('lists every mounted route and every Query and Mutation resolver with its gate (gates.json)', async () => {
    const gates = gatesOf(app.app);
    const routes = routeTable(app.app).map((row) => `${row.method} ${row.path}`);
    const resolvers = await resolverNames();
    expect(routes.filter((key) => !gates.has(key)), 'routes without a gate').to.deep.equal([]);
    expect(resolvers.filter((key) => !gates.has(key)), 'resolvers without a gate').to.deep.equal([]);
    expect(routes).to.include('GET /api/gated/ping');
    const listing = Object.fromEntries([...routes, ...resolvers].sort().map((key) => [key, describeGate(gates.get(key)!.summary())]));
    if (process.env.RECORD_GATES === '1') fs.writeFileSync(RECORDED, `${JSON.stringify(listing, null, 2)}\n`);
    expect(listing).to.deep.equal(JSON.parse(fs.readFileSync(RECORDED, 'utf8')));
  });

  it('a resolver runs the gate of the route doing the same: the same actions required, the same policies', () => {
    const gates = gatesOf(app.app);
    const pairs: Array<[string, string]> = [
      ['GET /api/articles', 'graphql Query.articles'],
      ['GET /api/articles/:id', 'graphql Query.article'],
      ['POST /api/articles', 'graphql Mutation.createArticle'],
      ['PUT /api/articles/:id', 'graphql Mutation.updateArticle'],
      ['DELETE /api/articles/:id', 'graphql Mutation.deleteArticle'],
      ['GET /api/homepage', 'graphql Query.homepage'],
      ['GET /api/users/me', 'graphql Query.me'],
    ];
    // A generated resolver's own action, or users-permissions' `scope` naming its route's action: the same decision.
    const required = (key: string) => {
      const { actions, policies } = gates.get(key)!.summary();
      return { actions, policies };
    };
    for (const [route, resolver] of pairs) expect([resolver, required(resolver)]).to.deep.equal([resolver, required(route)]);
  });

  it('a rule added to the gate reaches REST, GraphQL and plugin routes at once, each refusing in its own words', async () => {
    const requests = {
      rest: () => app.get('/api/articles', { token: readOnly }),
      graphql: () => app.post('/graphql', { query: '{ articles { data { id } } }' }, { token: readOnly }),
      usersPermissions: () => app.get('/api/users', { token: readOnly }),
      upload: () => app.get('/api/upload/files', { token: readOnly }),
      localPlugin: () => app.get('/api/gated/ping', { token: readOnly }),
      open: () => app.get('/api/auth/email-confirmation?confirmation=none', { token: readOnly }),
    };
    const statuses = async () => Object.fromEntries(await Promise.all(Object.entries(requests).map(async ([name, send]) => [name, (await send()).status])));
    // Before: a read-only token reads everywhere (the local plugin's action is a `find`).
    expect((await requests.graphql()).body.errors).to.equal(undefined);
    const before = await statuses();
    expect(before).to.deep.include({ rest: 200, graphql: 200, usersPermissions: 200, upload: 200, localPlugin: 200 });

    const decide = Gate.prototype.refusal;
    Gate.prototype.refusal = function (this: Gate, caller) {
      const refusal = decide.call(this, caller);
      // Only where a requirement applies: not `auth: false`, nor the GraphQL endpoint's route (its fields decide).
      if (refusal !== undefined || ['none', 'per-operation'].includes(this.summary().requirement)) return refusal;
      return READ_ONLY_REFUSED(caller) ? 'forbidden' : undefined;
    };
    try {
      const forbidden = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
      expect((await requests.rest()).body).to.deep.equal(forbidden);
      expect((await requests.usersPermissions()).body).to.deep.equal(forbidden);
      expect((await requests.upload()).body).to.deep.equal(forbidden);
      expect((await requests.localPlugin()).body).to.deep.equal(forbidden);
      expect((await requests.graphql()).body).to.deep.equal({
        errors: [{ message: 'Forbidden access', extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } }],
        data: { articles: null },
      });
      // `auth: false` routes require nothing: the rule leaves them as they were.
      expect((await requests.open()).status).to.equal(before.open);
    } finally {
      Gate.prototype.refusal = decide;
    }
    expect(await statuses()).to.deep.equal(before);
  });
});

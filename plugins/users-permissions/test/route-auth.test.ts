/**
 * Who may call a route, and what an app middleware sees of a refusal, as Strapi 4.26.2 answers
 * (strapi-route-auth.json, recorded on the peer with these very routes written for Strapi):
 * - a scope of several actions needs all of them (Strapi's strategies check `every`);
 * - a full-access token passes any scope, or none; a read-only token only scopes that are all reads; a custom
 *   token only scopes it holds all of, and never a route without a scope; a user any route without one;
 * - `strapi.auth.verify` takes a scope given as one string;
 * - a refusal (authentication, authorization, a policy, or a handler throwing ForbiddenError, UnauthorizedError or
 *   PolicyError) is an answer the app's own middleware sees (`ctx.status` 401/403, the bare envelope as `ctx.body`)
 *   and may rewrite, not an exception thrown past it; other errors a handler throws still pass through it.
 * Strapi answers one case with a 500 (a custom token on a route without a scope: its verify calls
 * `ability.can(undefined)`): Tessera answers it 403, as it answers a read-only token there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { register, startUpApp } from './fixture';

interface Exchange {
  caller: 'anonymous' | 'full-access' | 'read-only' | 'custom' | 'user';
  path: string;
  status: number;
  saw: string;
  body: unknown;
}

const RECORDED = JSON.parse(fs.readFileSync(path.join(__dirname, 'strapi-route-auth.json'), 'utf8')) as { exchanges: Exchange[] };

/** Strapi's 500 (see above) and what Tessera answers instead. */
function expected(exchange: Exchange): Pick<Exchange, 'status' | 'saw' | 'body'> {
  if (exchange.caller !== 'custom' || exchange.status !== 500) return { status: exchange.status, saw: exchange.saw, body: exchange.body };
  return { status: 403, saw: 'status 403', body: { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } } };
}

const TAG_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};

const files = {
  'src/api/tag/content-types/tag/schema.json': TAG_SCHEMA,
  'src/api/probe/routes/probe.js': `module.exports = {
  routes: [
    { method: 'GET', path: '/probe/own-action', handler: 'probe.ownAction' },
    { method: 'GET', path: '/probe/scope-one', handler: 'probe.ok', config: { auth: { scope: ['api::tag.tag.find'] } } },
    { method: 'GET', path: '/probe/scope-two', handler: 'probe.ok', config: { auth: { scope: ['api::tag.tag.find', 'api::tag.tag.create'] } } },
    { method: 'GET', path: '/probe/scope-write', handler: 'probe.ok', config: { auth: { scope: ['api::tag.tag.create'] } } },
    { method: 'GET', path: '/probe/verify-string', handler: 'probe.verifyString', config: { auth: { scope: ['api::tag.tag.find'] } } },
    { method: 'GET', path: '/probe/verify-two', handler: 'probe.verifyTwo', config: { auth: { scope: ['api::tag.tag.find'] } } },
    { method: 'GET', path: '/probe/verify-none', handler: 'probe.verifyNone', config: { auth: { scope: ['api::tag.tag.find'] } } },
    { method: 'GET', path: '/probe/function', handler: async (ctx) => { ctx.body = { ok: true }; } },
    { method: 'GET', path: '/probe/policy-false', handler: 'probe.ok', config: { auth: false, policies: ['global::deny'] } },
    { method: 'GET', path: '/probe/throws/:kind', handler: 'probe.throws', config: { auth: false } },
    { method: 'GET', path: '/probe/policy-throws', handler: 'probe.ok', config: { auth: false, policies: ['global::throws'] } },
  ],
};
`,
  'src/api/probe/controllers/probe.js': `const { errors } = require('@strapi/utils');
module.exports = {
  async throws(ctx) {
    const kind = ctx.params.kind;
    if (kind === 'forbidden') throw new errors.ForbiddenError('Custom forbidden', { why: 1 });
    if (kind === 'unauthorized') throw new errors.UnauthorizedError('Custom unauthorized', { why: 1 });
    if (kind === 'validation') throw new errors.ValidationError('Custom validation', { why: 1 });
    if (kind === 'notfound') throw new errors.NotFoundError('Custom not found', { why: 1 });
    if (kind === 'policy') throw new errors.PolicyError('Custom policy', { why: 1 });
    if (kind === 'ctx-forbidden') return ctx.forbidden('Ctx forbidden', { why: 1 });
    if (kind === 'ctx-badrequest') return ctx.badRequest('Ctx bad request', { why: 1 });
    throw new Error('plain');
  },
  async ok(ctx) { ctx.body = { ok: true }; },
  async ownAction(ctx) { ctx.body = { ok: true }; },
  async verifyString(ctx) { await strapi.auth.verify(ctx.state.auth, { scope: 'api::tag.tag.find' }); ctx.body = { ok: true }; },
  async verifyTwo(ctx) { await strapi.auth.verify(ctx.state.auth, { scope: ['api::tag.tag.find', 'api::tag.tag.create'] }); ctx.body = { ok: true }; },
  async verifyNone(ctx) { await strapi.auth.verify(ctx.state.auth, {}); ctx.body = { ok: true }; },
};
`,
  'src/policies/deny.js': 'module.exports = () => false;\n',
  'src/policies/throws.js': `const { errors } = require('@strapi/utils');
module.exports = () => { throw new errors.PolicyError('Custom policy message', { policy: 'throws' }); };
`,
  'src/middlewares/refusal-rewriter.js': `module.exports = () => async (ctx, next) => {
  if (!ctx.url.startsWith('/api/probe')) return next();
  try {
    await next();
  } catch (error) {
    ctx.set('x-probe-saw', 'thrown ' + error.name);
    throw error;
  }
  ctx.set('x-probe-saw', 'status ' + ctx.status);
  if (ctx.status === 403 && ctx.query.rewrite === '1') ctx.body = { rewritten: true, was: ctx.body };
};
`,
  'config/middlewares.js': `module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public', 'global::refusal-rewriter'];\n`,
};

eachDatabase('route authorization and refusals, as Strapi 4.26.2', (dialect) => {
  let app: TestApp;
  const tokens: Partial<Record<Exchange['caller'], string>> = {};

  before(async () => {
    app = await startUpApp(dialect, { files, permissions: { public: ['api::tag.tag.find'] } });
    const authenticated = await app.app.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    await app.app.db.query('plugin::users-permissions.permission').create({ data: { action: 'api::tag.tag.find', role: authenticated!.id } });
    tokens['full-access'] = (await app.app.apiTokens.create({ name: 'probe-full', type: 'full-access' })).accessKey;
    tokens['read-only'] = (await app.app.apiTokens.create({ name: 'probe-read', type: 'read-only' })).accessKey;
    tokens.custom = (await app.app.apiTokens.create({ name: 'probe-custom', type: 'custom', permissions: ['api::tag.tag.find'] })).accessKey;
    tokens.user = (await register(app, 'probe')).jwt;
  });
  after(() => app?.stop());

  for (const exchange of RECORDED.exchanges) {
    const answer = expected(exchange);
    it(`${exchange.caller} GET ${exchange.path} → ${answer.status} (${answer.saw})`, async () => {
      const response = await app.get(exchange.path, { token: tokens[exchange.caller] });
      expect({ status: response.status, saw: response.headers.get('x-probe-saw'), body: response.body }).to.deep.equal(answer);
    });
  }
});

/**
 * The route chain as Strapi 4.26.2 builds it, with the answers recorded from
 * the reference peer (routes added to its article API):
 *   - authenticate → authorize → policies → route middlewares → handler:
 *     `{"order":["policy","middleware"]}`;
 *   - a refusal raised after authorization (a handler throwing ForbiddenError
 *     or UnauthorizedError, on an `auth: false` route too) is answered as the
 *     route's own: a bare 403 "Forbidden" / 401 "Unauthorized";
 *   - policy names: a bare name is the router's API's; a name that exists
 *     only as `global::` must say so, or the app does not boot (Strapi:
 *     'Error creating endpoint GET /articles: Could not find policy "always-true"').
 */
import { expect } from 'chai';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { errorBody } from './fixture';

const ARTICLE = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
};

const ROUTES = `
const { ForbiddenError, UnauthorizedError } = require('@tessera/errors');
module.exports = {
  routes: [
    { method: 'GET', path: '/authz/throws-forbidden', handler: () => { throw new ForbiddenError('custom reason'); }, config: { auth: false } },
    { method: 'GET', path: '/authz/throws-unauthorized', handler: () => { throw new UnauthorizedError('custom reason'); }, config: { auth: false } },
    { method: 'GET', path: '/authz/order', handler: (ctx) => { ctx.body = { order: ctx.state.order }; }, config: { auth: false,
      middlewares: [(ctx, next) => { (ctx.state.order ??= []).push('middleware'); return next(); }],
      policies: [(policyContext) => { (policyContext.ctx.state.order ??= []).push('policy'); return true; }] } },
    { method: 'GET', path: '/authz/api-policy', handler: (ctx) => { ctx.body = { ok: true }; }, config: { auth: false, policies: ['let-me'] } },
    { method: 'GET', path: '/authz/null-policy', handler: (ctx) => { ctx.body = { ok: true }; }, config: { auth: false, policies: [() => null] } },
  ],
};
`;

const FILES = {
  'src/api/article/content-types/article/schema.json': ARTICLE,
  'src/api/article/routes/zz-authz.js': ROUTES,
  'src/api/article/policies/let-me.js': `module.exports = (policyContext) => policyContext.ctx.get('x-let-me') === 'yes';\n`,
  'config/permissions.ts': `export default { public: ['api::article.article.find'] };\n`,
};

eachDatabase('the route chain (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files: FILES });
  });
  after(() => app?.stop());

  it('policies run before the route middlewares', async () => {
    expect((await app.get('/api/authz/order')).body).to.deep.equal({ order: ['policy', 'middleware'] });
  });

  it('a ForbiddenError or UnauthorizedError from the handler is the route\'s own bare refusal', async () => {
    const forbidden = await app.get('/api/authz/throws-forbidden');
    expect([forbidden.status, forbidden.body]).to.deep.equal([403, errorBody(403, 'ForbiddenError', 'Forbidden')]);
    const unauthorized = await app.get('/api/authz/throws-unauthorized');
    expect([unauthorized.status, unauthorized.body]).to.deep.equal([401, errorBody(401, 'UnauthorizedError', 'Unauthorized')]);
  });

  it('a bare policy name is the router\'s API\'s; its refusal is a bare 403', async () => {
    expect((await app.get('/api/authz/api-policy')).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    expect((await app.get('/api/authz/api-policy', { headers: { 'x-let-me': 'yes' } })).body).to.deep.equal({ ok: true });
  });

  it('a policy answering anything but true or nothing refuses (Strapi: [true, undefined].includes(result))', async () => {
    expect((await app.get('/api/authz/null-policy')).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
  });

  it('a bare name that exists only as global:: is no policy of the route: the app does not boot', async () => {
    const error = await bootError({
      dialect,
      files: {
        'src/api/article/content-types/article/schema.json': ARTICLE,
        'src/api/article/routes/article.js': `module.exports = { routes: [{ method: 'GET', path: '/articles', handler: 'article.find', config: { policies: ['always-true'] } }] };\n`,
        'src/policies/always-true.js': 'module.exports = () => true;\n',
      },
    });
    expect(error.message).to.equal('route GET /articles: unknown policy "always-true"');
  });
});

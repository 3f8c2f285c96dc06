import { expect } from 'chai';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * Strapi v4's `strapi.*` APIs as published plugin and app code calls them:
 * a local plugin (`src/plugins/surface`) and the app's `src/index.js` use
 * them in `register` and `bootstrap` exactly as they would on Strapi, and
 * every effect is checked over real HTTP and in the real tables.
 */
const PLUGIN_SERVER = `
'use strict';
module.exports = {
  register({ strapi }) {
    strapi.customFields.register({ name: 'color', plugin: 'surface', type: 'string', inputSize: { default: 4, isResizable: true } });
    strapi.customFields.register([{ name: 'rating', type: 'integer' }]);
    strapi.server.use(async (ctx, next) => { await next(); ctx.set('X-Surface', 'seen'); });
    // As socket.io attaches (strapi-plugin-io): to the Node server, before it listens.
    strapi.server.httpServer.on('request', (request) => {
      if (request.url === '/surface-node') strapi.plugin('surface').nodeRequests = (strapi.plugin('surface').nodeRequests ?? 0) + 1;
    });
    strapi.server.routes([{ method: 'GET', path: '/surface-raw', handler: (ctx) => { ctx.body = { raw: true }; }, config: { auth: false } }]);
    strapi.server.routes({
      type: 'content-api',
      prefix: '/surface',
      routes: [
        { method: 'GET', path: '/store', handler: 'plugin::surface.probe.store', config: { auth: false } },
        { method: 'GET', path: '/helpers/:kind', handler: 'plugin::surface.probe.helpers', config: { auth: false } },
        { method: 'GET', path: '/verify', handler: 'plugin::surface.probe.verify', config: { auth: false } },
        { method: 'GET', path: '/pages', handler: 'plugin::surface.probe.pages', config: { auth: false } },
      ],
    });
    strapi.admin.services.permission.actionProvider.registerMany([
      { section: 'plugins', displayName: 'Read', uid: 'read', pluginName: 'surface' },
      { section: 'plugins', displayName: 'Settings', uid: 'settings', pluginName: 'surface' },
    ]);
  },
  async bootstrap({ strapi }) {
    const store = strapi.store({ type: 'plugin', name: 'surface' });
    await store.set({ key: 'settings', value: { greeting: 'hello', n: 2 } });
    await store.set({ key: 'count', value: 41 });
    await store.set({ key: 'count', value: 42 });
    await store.set({ key: 'gone', value: true });
    await store.delete({ key: 'gone' });
  },
  controllers: {
    probe: ({ strapi }) => ({
      async store(ctx) {
        ctx.body = {
          settings: await strapi.store({ type: 'plugin', name: 'surface' }).get({ key: 'settings' }),
          count: await strapi.store.get({ type: 'plugin', name: 'surface', key: 'count' }),
          gone: await strapi.store.get({ type: 'plugin', name: 'surface', key: 'gone' }),
          missing: await strapi.store.get({ key: 'never' }),
        };
      },
      helpers(ctx) {
        const kind = ctx.params.kind;
        if (kind === 'bad') return ctx.badRequest('Nope', { field: 'x' });
        if (kind === 'missing') return ctx.notFound();
        if (kind === 'forbidden') return ctx.forbidden('Not yours');
        if (kind === 'unauthorized') return ctx.unauthorized();
        if (kind === 'large') return ctx.payloadTooLarge('Too big');
        if (kind === 'internal') return ctx.internalServerError();
        if (kind === 'created') return ctx.created({ made: 1 });
        if (kind === 'sent') return ctx.send({ sent: 1 }, 202);
        if (kind === 'deleted') return ctx.deleted();
        ctx.body = { kind };
      },
      async verify(ctx) {
        await strapi.auth.verify(ctx.state.auth, { scope: ['api::article.article.create'] });
        ctx.body = { verified: true };
      },
      async pages(ctx) {
        const repository = strapi.db.query('api::article.article');
        const [entries, total] = await repository.findWithCount({ select: ['title'], orderBy: { title: 'asc' }, limit: 1 });
        const page = await repository.findPage({ select: ['title'], orderBy: { title: 'asc' }, page: 2, pageSize: 1 });
        ctx.body = { entries: entries.map((e) => e.title), total, page: { titles: page.results.map((e) => e.title), pagination: page.pagination } };
      },
    }),
  },
};
`;

const APP_INDEX = `
'use strict';
module.exports = {
  bootstrap({ strapi }) {
    // Strapi's strapi.api[name].routes: the router object, mutable until the routes are mounted.
    strapi.api.article.routes.article.routes.push({
      method: 'GET', path: '/articles-count', handler: async (ctx) => { ctx.body = { count: await strapi.db.query('api::article.article').count() }; }, config: { auth: false },
    });
  },
};
`;

const ARTICLE_SCHEMA = {
  kind: 'collectionType',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    color: { type: 'customField', customField: 'plugin::surface.color' },
    stars: { type: 'customField', customField: 'global::rating', max: 5 },
    secret: { type: 'string', private: true },
  },
};

const ROUTES = `module.exports = { routes: [
  { method: 'GET', path: '/articles', handler: 'article.find', config: { auth: false } },
  { method: 'POST', path: '/articles', handler: 'article.create' },
] };`;

// The custom find of Strapi v4's documentation (backend customization, controllers), as apps copy it.
const CONTROLLER = `const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::article.article', ({ strapi }) => ({
  async find(ctx) {
    await this.validateQuery(ctx);
    const sanitizedQueryParams = await this.sanitizeQuery(ctx);
    const { results, pagination } = await strapi.service('api::article.article').find(sanitizedQueryParams);
    const sanitizedResults = await this.sanitizeOutput(results, ctx);
    return this.transformResponse(sanitizedResults, { pagination });
  },
}));`;

function surfaceApp(extra: Record<string, string | object> = {}): Record<string, string | object> {
  return {
    'package.json': { name: 'surface-app', version: '1.2.3', description: 'A probe', strapi: { uuid: 'u-1', template: 'none' } },
    'src/plugins/surface/strapi-server.js': PLUGIN_SERVER,
    'src/index.js': APP_INDEX,
    'src/api/article/content-types/article/schema.json': ARTICLE_SCHEMA,
    'src/api/article/routes/article.js': ROUTES,
    'src/api/article/controllers/article.js': CONTROLLER,
    'config/plugins.js': `module.exports = { surface: { enabled: true, resolve: './src/plugins/surface' } };\n`,
    'config/permissions.js': `module.exports = { public: ['api::article.article.find'] };\n`,
    ...extra,
  };
}

eachDatabase('the strapi object: Strapi v4 APIs plugins call', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, files: surfaceApp() });
    token = await app.fullAccessToken();
    for (const title of ['b', 'a', 'c']) await app.post('/api/articles', { data: { title, color: '#fff', stars: 4, secret: 's' } }, { token });
  });
  after(() => app?.stop());

  it('strapi.store: get/set/delete in both forms, in Strapi\'s row format', async () => {
    const response = await app.get('/api/surface/store');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ settings: { greeting: 'hello', n: 2 }, count: 42, gone: null, missing: null });
    const rows = await app.app.db.query('strapi::core-store').findMany({ where: { key: { $startsWith: 'plugin_surface_' } }, select: ['key', 'value', 'type', 'environment', 'tag'], orderBy: 'key' });
    expect(rows.map(({ id: _id, ...row }) => row)).to.deep.equal([
      { key: 'plugin_surface_count', value: '42', type: 'number', environment: null, tag: null },
      { key: 'plugin_surface_settings', value: '{"greeting":"hello","n":2}', type: 'object', environment: null, tag: null },
    ]);
  });

  it('customField attributes are stored and validated as the registered type', async () => {
    const listed = await app.get('/api/articles?sort=title');
    expect(listed.body.data.map((entry: { attributes: Record<string, unknown> }) => entry.attributes.color)).to.deep.equal(['#fff', '#fff', '#fff']);
    expect(listed.body.data[0].attributes.stars).to.equal(4);
    expect(listed.body.data[0].attributes).not.to.have.property('secret');
    const tooMany = await app.post('/api/articles', { data: { title: 'x', stars: 9 } }, { token });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.error.name).to.equal('ValidationError');
    expect(app.app.customFields.has('plugin::surface.color')).to.equal(true);
    expect(app.app.customFields.get('global::rating').type).to.equal('integer');
    expect(app.app.contentType('api::article.article')!.attributes.color.type).to.equal('string');
  });

  it("a custom find written with the core controller's validateQuery/sanitizeQuery/sanitizeOutput answers as the default one", async () => {
    const page = await app.get('/api/articles?sort=title:desc&pagination[pageSize]=2&fields[0]=title&fields[1]=secret');
    expect(page.status).to.equal(400);
    expect(page.body.error.name).to.equal('ValidationError');
    const listed = await app.get('/api/articles?sort=title:desc&pagination[pageSize]=2&fields[0]=title');
    expect(listed.status).to.equal(200);
    expect(listed.body).to.deep.equal({
      data: [
        { id: listed.body.data[0].id, attributes: { title: 'c' } },
        { id: listed.body.data[1].id, attributes: { title: 'b' } },
      ],
      meta: { pagination: { page: 1, pageSize: 2, pageCount: 2, total: 3 } },
    });
    const filtered = await app.get('/api/articles?filters[secret][$eq]=s');
    expect(filtered.status).to.equal(400);
  });

  it('strapi.server.use, routes (root and content-api forms), listRoutes and api().listRoutes()', async () => {
    const raw = await app.get('/surface-raw');
    expect(raw.status).to.equal(200);
    expect(raw.body).to.deep.equal({ raw: true });
    expect(raw.headers.get('x-surface')).to.equal('seen');
    const paths = app.app.server.listRoutes().map((layer) => layer.path);
    expect(paths).to.include.members(['/surface-raw', '/api/surface/store', '/api/articles']);
    const contentApi = app.app.server.api('content-api').listRoutes().map((layer) => layer.path);
    expect(contentApi).to.include.members(['/api/surface/store', '/api/articles', '/api/articles-count']);
    expect(contentApi).not.to.include('/surface-raw');
    expect(app.app.server.app).to.equal(app.app.server.koa);
  });

  it('strapi.server.httpServer: the Node server from register on, the one the app listens on', async () => {
    const address = app.app.server.httpServer.address();
    expect(typeof address === 'object' && address?.port).to.equal(Number(new URL(app.url).port));
    expect((await app.get('/surface-node')).status).to.equal(404);
    expect(app.app.plugin('surface')!.nodeRequests).to.equal(1);
  });

  it('strapi.server.routes after mounting mounts at once', async () => {
    app.app.server.routes({ type: 'content-api', routes: [{ method: 'GET', path: '/late', handler: (ctx) => { ctx.body = { late: true }; }, config: { auth: false } }] });
    const response = await app.get('/api/late');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ late: true });
  });

  it('strapi.api[name].routes is mutable before mounting; contentTypes, services, controllers by short name', async () => {
    const response = await app.get('/api/articles-count');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ count: 3 });
    const api = app.app.api.article;
    expect(Object.keys(api.contentTypes)).to.deep.equal(['article']);
    expect(typeof (api.controllers.article as { find?: unknown }).find).to.equal('function');
    expect(api.routes.article.routes.map((route) => route.path)).to.deep.equal(['/articles', '/articles', '/articles-count']);
  });

  it("ctx response helpers answer in Strapi v4's envelope", async () => {
    const expectations: Array<[string, number, unknown]> = [
      ['bad', 400, { data: null, error: { status: 400, name: 'BadRequestError', message: 'Nope', details: { field: 'x' } } }],
      ['missing', 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }],
      ['forbidden', 403, { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Not yours', details: {} } }],
      ['unauthorized', 401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Unauthorized', details: {} } }],
      ['large', 413, { data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'Too big', details: {} } }],
      ['internal', 500, { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } }],
      ['created', 201, { made: 1 }],
      ['sent', 202, { sent: 1 }],
    ];
    for (const [kind, status, body] of expectations) {
      const response = await app.get(`/api/surface/helpers/${kind}`);
      expect([kind, response.status, response.body]).to.deep.equal([kind, status, body]);
    }
    const deleted = await app.get('/api/surface/helpers/deleted');
    expect([deleted.status, deleted.text]).to.deep.equal([204, '']);
  });

  it('strapi.auth.verify checks a scope as a route would', async () => {
    const anonymous = await app.get('/api/surface/verify');
    expect(anonymous.status).to.equal(403);
    expect(anonymous.body.error.name).to.equal('ForbiddenError');
    const noCaller = await app.app.auth.verify(undefined, {}).then(() => undefined, (error: Error) => error);
    expect(noCaller?.name).to.equal('UnauthorizedError');
    expect(await app.app.auth.verify(undefined, false)).to.equal(undefined);
  });

  it('db.query findWithCount and findPage with Strapi\'s signatures and results', async () => {
    const response = await app.get('/api/surface/pages');
    expect(response.body).to.deep.equal({
      entries: ['a'],
      total: 3,
      page: { titles: ['b'], pagination: { page: 2, pageSize: 1, pageCount: 3, total: 3 } },
    });
  });

  it('config.info, getModel, admin actions recorded, contentAPI sanitizers', async () => {
    expect(app.app.config.get('info.name')).to.equal('surface-app');
    expect(app.app.config.get('info.version')).to.equal('1.2.3');
    expect(app.app.config.get('info.strapi')).to.equal('4.26.2');
    expect(app.app.config.get('uuid')).to.equal('u-1');
    expect(app.app.config.get('packageJsonStrapi')).to.deep.equal({ template: 'none' });
    expect(app.app.getModel('api::article.article')?.uid).to.equal('api::article.article');
    expect(app.app.getModel('api::nothing.nothing')).to.equal(undefined);
    // Strapi's registries answer undefined for an unknown type: plugins probe for optional ones so.
    expect(app.app.contentType('plugin::users-permissions.user')).to.equal(undefined);
    expect(app.app.plugin('surface')!.contentType('nothing')).to.equal(undefined);
    // The content manager's explorer actions are there from the start (Strapi registers them itself); plugins find them by action id.
    const actions = app.app.admin.registered.actions;
    expect(actions.filter((action) => action.pluginName !== 'content-manager').map((action) => action.actionId)).to.deep.equal(['plugin::surface.read', 'plugin::surface.settings']);
    expect(app.app.admin.services.permission.actionProvider.get('plugin::content-manager.explorer.delete')).to.include({ uid: 'explorer.delete', section: 'contentTypes' });
    expect(app.app.admin.services.permission.actionProvider.get('plugin::surface.read')).to.equal(actions.find((action) => action.uid === 'read'));
    expect(app.app.admin.services.permission.actionProvider.has('plugin::nothing.read')).to.equal(false);
    const entry = await app.app.db.query('api::article.article').findOne({ where: { title: 'a' } });
    const output = await app.app.contentAPI.sanitize.output(entry, app.app.getModel('api::article.article') as { uid: string });
    expect(Object.keys(output as object).sort()).to.deep.equal(['color', 'createdAt', 'id', 'stars', 'title', 'updatedAt']);
    const input = await app.app.contentAPI.sanitize.input({ id: 9, title: 't', secret: 's', bogus: 1 }, 'api::article.article');
    expect(input).to.deep.equal({ title: 't' });
    let refused: Error | undefined;
    try {
      await app.app.contentAPI.validate.query({ filters: { secret: 'x' } }, 'api::article.article');
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.name).to.equal('ValidationError');
    // A role's or a token's permissions, as plugins read them from the database, made into an ability.
    const ability = await app.app.contentAPI.permissions.engine.generateAbility([{ action: 'api::article.article.find' }, { action: 'api::article.article.create' }]);
    expect([ability.can('api::article.article.create'), ability.can('api::article.article.delete')]).to.deep.equal([true, false]);
  });

  it('Strapi members Tessera lacks throw an error naming them and the documentation page', () => {
    const strapi = app.app as unknown as Record<string, unknown>;
    expect(() => strapi.container).to.throw(/strapi\.container is not available in Tessera: .*docs\/extending\.md, "The strapi object"/);
    expect(typeof (strapi.eventHub as { emit: unknown }).emit).to.equal('function'); // the webhooks module's event hub
    expect(app.app.EE).to.equal(false);
    expect(app.app.isLoaded).to.equal(true);
    expect(app.app.dirs.static.public).to.equal(`${app.dir}/public`);
  });
});

eachDatabase('api.rest.prefix', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files: { ...surfaceApp(), 'config/api.js': `module.exports = { rest: { prefix: '/v1' } };\n` } });
  });
  after(() => app?.stop());

  it('serves content-API routes, plugin ones included, under the configured prefix only', async () => {
    expect((await app.get('/v1/articles')).status).to.equal(200);
    expect((await app.get('/v1/surface/store')).status).to.equal(200);
    const old = await app.get('/api/articles');
    expect(old.status).to.equal(404);
    const hinted = await app.get('/v1/article');
    expect(hinted.status).to.equal(404);
    expect(hinted.body.error.details.hint).to.match(/closest content-API route is GET \/v1\/articles/);
  });
});

eachDatabase('customField attributes at boot', (dialect) => {
  it('an unregistered custom field is a boot error naming it', async () => {
    const schema = { ...ARTICLE_SCHEMA, attributes: { title: { type: 'string' }, shade: { type: 'customField', customField: 'plugin::palette.shade' } } };
    const error = await bootError({ dialect, files: { ...surfaceApp(), 'src/api/article/content-types/article/schema.json': schema } });
    expect(error.message).to.match(/attribute "shade" uses the custom field "plugin::palette.shade", which no enabled plugin registers/);
  });
});

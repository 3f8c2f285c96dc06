/**
 * What Strapi v4's route chain and request store give server code during a
 * request: `strapi.requestContext.get()` is the request's Koa context inside
 * lifecycle hooks (each request its own, also when they overlap), and
 * `ctx.state.route` is the matched route with its config, including what a
 * plugin wrote into that config during register.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import { NOTE_FILES } from './middleware-helpers';

const FILES = {
  'config/permissions.js': `module.exports = { public: ['api::note.note.find'] };`,
  'src/api/note/content-types/note/schema.json': NOTE_FILES['src/api/note/content-types/note/schema.json'],
  'src/middlewares/route-marker.js': `
module.exports = () => async (ctx, next) => {
  await next();
  ctx.set('x-route', [ctx.state.route.method, ctx.state.route.path, ctx.state.route.info.apiName, ctx.state.route.config.marker].join(' '));
};
`,
  'src/index.js': `
const seen = [];
module.exports = {
  register({ strapi }) {
    // As strapi-plugin-protected-populate does: a route middleware, and its settings in the route's config.
    const [find] = strapi.api.note.routes.note.routes;
    find.config = { ...find.config, marker: 'set-in-register', middlewares: ['global::route-marker'] };
  },
  bootstrap({ strapi }) {
    const { requestContext } = strapi;
    strapi.db.lifecycles.subscribe({
      models: ['api::note.note'],
      async afterFindMany() {
        const ctx = requestContext.get();
        // A later turn of the event loop: the store follows the request's own async work.
        await new Promise((resolve) => setTimeout(resolve, Number(ctx?.query.wait ?? 0)));
        seen.push(ctx ? ctx.get('x-caller') + ' ' + ctx.path : 'none');
      },
    });
    strapi.server.routes([{ method: 'GET', path: '/seen', handler: (ctx) => { ctx.body = seen.splice(0); }, config: { auth: false } }]);
  },
};
`,
};

describe('request context and ctx.state.route [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: FILES });
    await app.app.entityService.create('api::note.note', { data: { title: 'a' } });
  });
  after(() => app.stop());

  it("gives lifecycle hooks their own request's context, also for overlapping requests", async () => {
    await app.get('/seen'); // the boot's own reads, outside any request
    const slow = app.get('/api/notes?wait=150', { headers: { 'x-caller': 'slow' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await app.get('/api/notes', { headers: { 'x-caller': 'fast' } });
    await slow;
    expect((await app.get('/seen')).body).to.deep.equal(['fast /api/notes', 'slow /api/notes']);
  });

  it('answers undefined outside a request, and what run() was given inside it', async () => {
    const { requestContext } = app.app;
    expect(requestContext.get()).to.equal(undefined);
    const store = { path: '/job' } as Parameters<typeof requestContext.run>[0];
    expect(await requestContext.run(store, async () => requestContext.get()?.path)).to.equal('/job');
    expect(requestContext.get()).to.equal(undefined);
  });

  it('sets ctx.state.route: the matched route, its info, and the config written during register', async () => {
    const response = await app.get('/api/notes');
    expect(response.status).to.equal(200);
    expect(response.headers.get('x-route')).to.equal('GET /notes note set-in-register');
  });
});

describe('request context on the first request after boot [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect: 'sqlite',
      files: {
        'config/permissions.js': `module.exports = { public: ['api::note.note.create'] };`,
        'src/api/note/content-types/note/schema.json': NOTE_FILES['src/api/note/content-types/note/schema.json'],
        // Nothing reads strapi.requestContext before this hook does, during the first request (Strapi's is always on).
        'src/api/note/content-types/note/lifecycles.js': `
module.exports = {
  beforeCreate(event) {
    event.params.data.title = strapi.requestContext.get().request.header['x-title'];
  },
};
`,
      },
    });
  });
  after(() => app.stop());

  it("gives a lifecycle hook the request's context on the very first request", async () => {
    const response = await app.request('POST', '/api/notes', { body: { data: { title: 'ignored' } }, headers: { 'x-title': 'from the header' } });
    expect([response.status, (response.body as { data: { attributes: { title: string } } }).data.attributes.title]).to.deep.equal([200, 'from the header']);
  });
});

/** A published-style plugin whose service, not its entry, reads the store during a request. */
const READER_PLUGIN = {
  'package.json': { name: 'reader-app', private: true, dependencies: { 'strapi-plugin-reader': '1.0.0' } },
  'node_modules/strapi-plugin-reader/package.json': { name: 'strapi-plugin-reader', version: '1.0.0', strapi: { kind: 'plugin', name: 'reader' } },
  'node_modules/strapi-plugin-reader/strapi-server.js': `module.exports = require('./server');\n`,
  'node_modules/strapi-plugin-reader/server/index.js': `module.exports = {
  services: { caller: require('./caller') },
  controllers: { caller: { show(ctx) { ctx.body = { path: strapi.plugin('reader').service('caller').path() }; } } },
  routes: { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/caller', handler: 'caller.show', config: { auth: false } }] } },
};
`,
  'node_modules/strapi-plugin-reader/server/caller.js': `module.exports = ({ strapi }) => ({ path: () => strapi.requestContext.get()?.path ?? 'none' });\n`,
};

describe('request context: on when Strapi code reads it [sqlite]', () => {
  let plain: TestApp;
  let reading: TestApp;
  before(async () => {
    plain = await startApp({ dialect: 'sqlite', files: { 'src/api/note/content-types/note/schema.json': NOTE_FILES['src/api/note/content-types/note/schema.json'] } });
    reading = await startApp({ dialect: 'sqlite', files: READER_PLUGIN });
  });
  after(async () => {
    await plain?.stop();
    await reading?.stop();
  });

  it("is off in an app whose code never names it, and stays off through its requests (Tessera's own code never reads it)", async () => {
    expect((await plain.get('/api/notes', { token: await plain.fullAccessToken() })).status).to.equal(200);
    expect(plain.app.requestContext.enabled).to.equal(false);
  });

  it("is on from the boot when an installed plugin's service file names it, and gives it the first request's context", async () => {
    expect(reading.app.requestContext.enabled).to.equal(true);
    expect((await reading.get('/api/reader/caller')).body).to.deep.equal({ path: '/api/reader/caller' });
  });

  it('is turned on by a first read outside the boot, for the requests after it', async () => {
    plain.app.requestContext.get();
    expect(plain.app.requestContext.enabled).to.equal(true);
  });
});

import { expect } from 'chai';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * A local plugin written in Strapi v4's server format, loaded from
 * `src/plugins/notebook` through `config/plugins.ts`: its config (default,
 * app config, validator), content type (own table), service, controller,
 * content-API routes under /api/notebook, policy, and a relation from an app
 * type into it.
 */
const PLUGIN_SERVER = `
'use strict';
module.exports = {
  config: {
    default: { greeting: 'hello', punctuation: '!', open: true, max: 3 },
    validator(config) {
      if (typeof config.max !== 'number') throw new Error('max must be a number, got ' + JSON.stringify(config.max));
    },
  },
  contentTypes: {
    memo: {
      schema: {
        kind: 'collectionType',
        collectionName: 'notebook_memos',
        info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
        options: { draftAndPublish: false },
        attributes: { body: { type: 'string', required: true }, secret: { type: 'string', private: true } },
      },
    },
  },
  services: {
    memo: ({ strapi }) => ({
      greet() {
        const config = strapi.plugin('notebook').config();
        return config.greeting + config.punctuation;
      },
      list() {
        return strapi.entityService.findMany('plugin::notebook.memo', { sort: 'body:asc', fields: ['body'] });
      },
    }),
  },
  controllers: {
    memo: ({ strapi }) => ({
      async find(ctx) {
        ctx.body = { memos: (await strapi.plugin('notebook').service('memo').list()).map((memo) => memo.body) };
      },
      async create(ctx) {
        const memo = await strapi.entityService.create('plugin::notebook.memo', { data: ctx.request.body });
        ctx.body = { id: memo.id, body: memo.body };
      },
      greeting(ctx) {
        ctx.body = { greeting: strapi.plugin('notebook').service('memo').greet() };
      },
    }),
  },
  policies: {
    'is-open': (policyContext, config, { strapi }) => strapi.plugin('notebook').config('open') === true,
  },
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/memos', handler: 'memo.find' },
        { method: 'POST', path: '/memos', handler: 'memo.create' },
        { method: 'GET', path: '/greeting', handler: 'memo.greeting', config: { auth: false, policies: ['is-open'] } },
        { method: 'GET', path: '/notebook-root', handler: 'memo.greeting', config: { auth: false, prefix: '' } },
      ],
    },
    admin: {
      type: 'admin',
      routes: [
        { method: 'GET', path: '/settings', handler: 'memo.greeting', config: { auth: false } },
        // As published plugins declare them: Strapi's admin policies, which an app without @strapi/admin does not have.
        { method: 'GET', path: '/private', handler: 'memo.greeting', config: { policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions: ['plugin::notebook.read'] } }] } },
      ],
    },
  },
};
`;

const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: true },
  attributes: {
    text: { type: 'string' },
    hidden: { type: 'string', private: true },
    memo: { type: 'relation', relation: 'manyToOne', target: 'plugin::notebook.memo' },
  },
};

function notebookApp(pluginConfig: Record<string, unknown> = {}): Record<string, string | object> {
  return {
    'src/plugins/notebook/strapi-server.js': PLUGIN_SERVER,
    'src/api/note/content-types/note/schema.json': NOTE_SCHEMA,
    'config/plugins.ts': `export default ${JSON.stringify({ notebook: { enabled: true, resolve: './src/plugins/notebook', config: pluginConfig } })};\n`,
    'config/permissions.ts': `export default { public: ['api::note.note.find', 'api::note.note.findOne', 'plugin::notebook.memo.find'] };\n`,
  };
}

eachDatabase('plugins in Strapi v4 server format', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, files: notebookApp({ greeting: 'hi' }) });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it('routes content-API routes under /api/<plugin>, guarded by plugin::<name>.<controller>.<action>', async () => {
    const anonymousCreate = await app.post('/api/notebook/memos', { body: 'nope' });
    expect(anonymousCreate.status).to.equal(403);
    const created = await app.post('/api/notebook/memos', { body: 'buy milk', secret: 's3' }, { token });
    expect(created.status).to.equal(200);
    expect(created.body).to.deep.equal({ id: created.body.id, body: 'buy milk' });
    await app.post('/api/notebook/memos', { body: 'answer mail' }, { token });
    const listed = await app.get('/api/notebook/memos');
    expect(listed.status).to.equal(200);
    expect(listed.body).to.deep.equal({ memos: ['answer mail', 'buy milk'] });
  });

  it('stores the plugin type in its own table', async () => {
    const rows = await app.app.db.sql.all(app.app.db.sql.knex('notebook_memos').select('body', 'secret').orderBy('id'));
    expect(rows.map((row) => ({ ...row }))).to.deep.equal([
      { body: 'buy milk', secret: 's3' },
      { body: 'answer mail', secret: null },
    ]);
  });

  it('merges config/plugins.ts over the default, and policies read it', async () => {
    const response = await app.get('/api/notebook/greeting');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ greeting: 'hi!' });
    expect(app.app.plugin('notebook')!.config('max')).to.equal(3);
    expect(app.app.config.get('plugin.notebook.greeting')).to.equal('hi');
  });

  it("mounts a route with config.prefix '' at /api<path>; admin routes at /<plugin>/…, as Strapi", async () => {
    expect((await app.get('/api/notebook-root')).body).to.deep.equal({ greeting: 'hi!' });
    expect((await app.get('/api/notebook/settings')).status).to.equal(404);
    expect((await app.get('/notebook/settings')).body).to.deep.equal({ greeting: 'hi!' });
    // An app without @strapi/admin runs API-only: nobody could call its plugins' private admin routes, so they are not
    // served (and the admin policies they name, which only the admin plugin registers, do not stop the boot).
    expect((await app.get('/notebook/private')).status).to.equal(404);
    expect((await app.get('/notebook/private', { token: await app.fullAccessToken() })).status).to.equal(404);
  });

  it('gives plugin entries plugin::<name>.<key> uids in the registries', () => {
    expect(app.app.contentTypes.has('plugin::notebook.memo')).to.equal(true);
    expect(app.app.contentType('plugin::notebook.memo')!.collectionName).to.equal('notebook_memos');
    expect(app.app.plugin('notebook')!.contentType('memo')!.info.pluralName).to.equal('memos');
    expect(Object.keys(app.app.contentTypes)).to.include.members(['api::note.note', 'plugin::notebook.memo']);
    expect(app.app.policies.has('plugin::notebook.is-open')).to.equal(true);
  });

  it("strapi.plugin(name).routes: its routers by name, the registry's own objects (plugin-documentation reads them)", () => {
    const { routes } = app.app.plugin('notebook')!;
    expect(Object.keys(routes).sort()).to.deep.equal(['admin', 'content-api']);
    expect(routes['content-api'].type).to.equal('content-api');
    expect(routes['content-api'].routes.map((route) => `${route.method} ${route.path}`)).to.deep.equal(['GET /memos', 'POST /memos', 'GET /greeting', 'GET /notebook-root']);
    expect(app.app.plugin('notebook')!.routes['content-api']).to.equal(routes['content-api']);
    expect(app.app.plugin('rest')!.routes).to.be.an('object');
  });

  it('populates a plugin type only with its find action', async () => {
    const [memo] = await app.app.db.query('plugin::notebook.memo').findMany({ where: { body: 'buy milk' } });
    const note = await app.post('/api/notes', { data: { text: 'with memo', hidden: 'x', memo: memo.id } }, { token });
    expect(note.status).to.equal(200);
    const trusted = await app.get(`/api/notes/${note.body.data.id}?populate=memo`, { token });
    expect(trusted.body.data.attributes.memo.data).to.deep.equal({
      id: memo.id,
      attributes: { body: 'buy milk', createdAt: trusted.body.data.attributes.memo.data.attributes.createdAt, updatedAt: trusted.body.data.attributes.memo.data.attributes.updatedAt },
    });
    // The public role has plugin::notebook.memo.find: it may populate and filter through it.
    const publicRead = await app.get(`/api/notes?populate[memo][fields][0]=body&filters[memo][body][$eq]=buy%20milk`);
    expect(publicRead.status).to.equal(200);
    expect(publicRead.body.data.map((entry: { attributes: { memo: { data: { attributes: unknown } } } }) => entry.attributes.memo.data.attributes)).to.deep.equal([{ body: 'buy milk' }]);
  });
});

eachDatabase('plugin permissions by namespace', (dialect) => {
  let app: TestApp;
  before(async () => {
    const files = notebookApp();
    files['config/permissions.ts'] = `export default { public: ['api::note.note.find'] };\n`;
    app = await startApp({ dialect, files });
    const token = await app.fullAccessToken();
    const memo = await app.app.entityService.create('plugin::notebook.memo', { data: { body: 'private plans' } });
    await app.post('/api/notes', { data: { text: 'linked', memo: memo.id } }, { token });
  });
  after(() => app?.stop());

  const INVALID_MEMO = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid parameter memo', details: {} } };

  it('is a 400 to filter or sort into a plugin type the caller may not find', async () => {
    for (const path of ['/api/notes?filters[memo][body][$eq]=private%20plans', '/api/notes?sort=memo.body']) {
      const response = await app.get(path);
      expect(response.status, path).to.equal(400);
      expect(response.body, path).to.deep.equal(INVALID_MEMO);
    }
  });

  it('leaves it out of populate, named or through * (Strapi v4, sample 84)', async () => {
    for (const path of ['/api/notes?populate=*', '/api/notes?populate=memo']) {
      const response = await app.get(path);
      expect(response.status).to.equal(200);
      expect(response.body.data[0].attributes).to.not.have.property('memo');
    }
  });
});

/** A plugin whose validator settles after a timer, as one that reads a file or asks a service does. */
function checkedApp(mode: string): Record<string, string> {
  const server = `module.exports = {
  config: {
    default: { mode: 'now' },
    async validator(config) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (config.mode !== 'now') throw new Error('mode must be "now", got ' + JSON.stringify(config.mode));
      config.checked = true;
    },
  },
};
`;
  return {
    'src/plugins/checked/strapi-server.js': server,
    'config/plugins.ts': `export default ${JSON.stringify({ checked: { enabled: true, resolve: './src/plugins/checked', config: { mode } } })};\n`,
  };
}

eachDatabase('plugin config validation', (dialect) => {
  it('stops the boot naming the plugin and the key', async () => {
    const error = await bootError({ dialect, files: notebookApp({ max: 'lots' }) });
    expect(error.message).to.equal('config/plugins: plugin "notebook" has an invalid config: max must be a number, got "lots"');
  });

  it('awaits an async validator: a rejection stops the boot naming the plugin, a resolution boots', async () => {
    const rejected = await bootError({ dialect, files: checkedApp('later') });
    expect(rejected.message).to.equal('config/plugins: plugin "checked" has an invalid config: mode must be "now", got "later"');
    const app = await startApp({ dialect, files: checkedApp('now'), noListen: true });
    try {
      // What the validator wrote after its await is there before the config is read.
      expect(app.app.config.get('plugin.checked')).to.deep.equal({ mode: 'now', checked: true });
    } finally {
      await app.stop();
    }
  });

  it('stops the boot when a plugin folder has no server entry', async () => {
    const error = await bootError({
      dialect,
      files: { 'src/plugins/empty/README.md': 'nothing', 'config/plugins.ts': `export default { empty: { enabled: true, resolve: './src/plugins/empty' } };\n` },
    });
    expect(error.message).to.contain('plugin "empty": ./src/plugins/empty has no strapi-server.js|ts, server/index.ts or package main');
  });
});

/**
 * An app whose src/index.js, controller and service are written for Strapi v4
 * (CommonJS, `{ strapi }`, `require('@strapi/strapi').factories`,
 * `require('@strapi/utils').errors`) runs unchanged.
 */
const STRAPI_INDEX = `
'use strict';
module.exports = {
  register({ strapi }) {
    strapi.log.info('registering the Strapi v4 app');
    globalThis.__strapiApp = { registered: typeof strapi.plugin('notebook').service('memo').greet };
  },
  async bootstrap({ strapi }) {
    const before = await strapi.entityService.count('api::note.note', { filters: { text: { $startsWith: 'seed' } } });
    for (const text of ['seed one', 'seed two', 'seed three']) {
      await strapi.entityService.create('api::note.note', { data: { text, hidden: 'h-' + text, publishedAt: new Date() } });
    }
    const found = await strapi.entityService.findMany('api::note.note', {
      filters: { text: { $startsWith: 'seed' } }, sort: { text: 'desc' }, fields: ['text'], limit: 2,
    });
    const row = await strapi.db.query('api::note.note').findOne({ where: { text: 'seed two' } });
    const copy = await strapi.db.query('api::note.note').create({ data: { text: 'copy of ' + row.text, publishedAt: new Date() } });
    const page = await strapi.entityService.findPage('api::note.note', { page: 2, pageSize: 2, sort: 'id' });
    Object.assign(globalThis.__strapiApp, {
      before,
      after: await strapi.entityService.count('api::note.note'),
      found,
      hidden: row.hidden,
      copy: { text: copy.text, hasCreatedAt: typeof copy.createdAt },
      page: page.pagination,
      greeting: strapi.plugin('notebook').service('memo').greet(),
      config: strapi.config.get('api.rest.defaultLimit', 25),
      contentTypes: Object.keys(strapi.contentTypes).filter((uid) => uid.startsWith('api::')),
    });
  },
};
`;

const STRAPI_CONTROLLER = `
'use strict';
const { createCoreController } = require('@strapi/strapi').factories;
const { errors } = require('@strapi/utils');
module.exports = createCoreController('api::note.note', ({ strapi }) => ({
  async find(ctx) {
    if (ctx.query.refuse) throw new errors.ApplicationError('refused on purpose', { why: 'test' });
    const response = await super.find(ctx);
    response.meta.greeting = strapi.service('api::note.note').greeting();
    return response;
  },
}));
`;

const STRAPI_SERVICE = `
'use strict';
const { createCoreService } = require('@strapi/strapi').factories;
module.exports = createCoreService('api::note.note', ({ strapi }) => ({
  greeting() { return strapi.plugin('notebook').service('memo').greet(); },
}));
`;

const STRAPI_MIDDLEWARE = `
'use strict';
module.exports = (config, { strapi }) => async (ctx, next) => {
  ctx.query.fields = ['text'];
  ctx.query.sort = 'text:asc';
  await next();
};
`;

eachDatabase('Strapi v4 app code runs unchanged', (dialect) => {
  let app: TestApp;
  const state = () => (globalThis as unknown as { __strapiApp: Record<string, unknown> }).__strapiApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        ...notebookApp(),
        'src/index.js': STRAPI_INDEX,
        'src/api/note/controllers/note.js': STRAPI_CONTROLLER,
        'src/api/note/services/note.js': STRAPI_SERVICE,
        'src/api/note/middlewares/text-only.js': STRAPI_MIDDLEWARE,
        'src/api/note/routes/note.js': `const { createCoreRouter } = require('@strapi/strapi').factories;\nmodule.exports = createCoreRouter('api::note.note', { config: { find: { middlewares: ['api::note.text-only'] } } });\n`,
      },
    });
  });
  after(() => app?.stop());

  it('runs register and bootstrap with { strapi }: entity service, query engine, plugin services, config', () => {
    expect(state()).to.deep.include({
      registered: 'function',
      before: 0,
      after: 4,
      hidden: 'h-seed two',
      copy: { text: 'copy of seed two', hasCreatedAt: 'string' },
      page: { page: 2, pageSize: 2, pageCount: 2, total: 4 },
      greeting: 'hello!',
      config: 25,
      contentTypes: ['api::note.note'],
    });
    expect((state().found as Array<{ text: string }>).map((entry) => entry.text)).to.deep.equal(['seed two', 'seed three']);
  });

  it('serves the Strapi-style controller, service and a route middleware that rewrites ctx.query', async () => {
    const response = await app.get('/api/notes');
    expect(response.status).to.equal(200);
    expect(response.body.meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 4 }, greeting: 'hello!' });
    expect(response.body.data.map((entry: { attributes: unknown }) => entry.attributes)).to.deep.equal([
      { text: 'copy of seed two' },
      { text: 'seed one' },
      { text: 'seed three' },
      { text: 'seed two' },
    ]);
  });

  it("answers @strapi/utils errors in Strapi's envelope", async () => {
    const response = await app.get('/api/notes?refuse=1');
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal({ data: null, error: { status: 400, name: 'ApplicationError', message: 'refused on purpose', details: { why: 'test' } } });
  });

  it('keeps Strapi query-engine forms: update/delete by where, createMany, updateMany, deleteMany', async () => {
    const query = app.app.db.query('plugin::notebook.memo');
    expect(await query.createMany({ data: [{ body: 'a' }, { body: 'b' }, { body: 'c' }] })).to.have.property('count', 3);
    const updated = await query.update({ where: { body: 'a' }, data: { body: 'a2' } });
    expect(updated?.body).to.equal('a2');
    expect(await query.update({ where: { body: 'nothing' }, data: { body: 'x' } })).to.equal(null);
    expect(await query.updateMany({ where: { body: { $in: ['b', 'c'] } }, data: { secret: 'bulk' } })).to.deep.equal({ count: 2 });
    expect(await query.count({ where: { secret: 'bulk' } })).to.equal(2);
    const removed = await query.delete({ where: { body: 'a2' } });
    expect(removed?.body).to.equal('a2');
    expect(await query.deleteMany({ where: { secret: 'bulk' } })).to.deep.equal({ count: 2 });
    expect(await query.count()).to.equal(0);
    expect(await query.findMany({ orderBy: { body: 'desc' }, select: ['body'], limit: 5 })).to.deep.equal([]);
  });
});

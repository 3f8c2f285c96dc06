/**
 * What published Strapi v4 plugins rely on, without the npm registry (the
 * ecosystem suite runs the packages themselves): a local plugin written the
 * way they are written.
 * - A route `GET /` under the plugin's prefix answers `/api/<plugin>` (strapi-plugin-menus).
 * - `strapi.plugins.x.services.y` and `strapi.services[uid]` are instances (strapi-plugin-sitemap).
 * - A misspelt key in a plugin's schema is a warning (strapi-plugin-navigation's `"require"`), and so is an
 *   option its type has no use for (strapi-plugin-ezforms' `"min"`/`"max"` on strings); Strapi ignores both.
 * - A promise left as the body, unawaited, answers `{}` as Koa answers it on Strapi; its rejection is logged, and
 *   the process goes on (strapi-plugin-redirects' `/content-types`, which reads the admin-side content manager).
 * - `db.query(uid).create` fills schema defaults; a string attribute stores a number as its text;
 *   server reads leave out `createdBy`/`updatedBy` (strapi-plugin-passwordless, -navigation, -fuzzy-search).
 * - Keys of an entity-service write that are not attributes reach the lifecycle hooks and are not written
 *   (@webbio/strapi-plugin-scheduler's `publishAt`); the content API still refuses them.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const PLUGIN_SERVER = `module.exports = {
  contentTypes: {
    token: { schema: { kind: 'collectionType', collectionName: 'convention_tokens',
      info: { singularName: 'token', pluralName: 'tokens', displayName: 'Token' }, options: { draftAndPublish: false },
      attributes: {
        body: { type: 'string', require: false },
        is_active: { type: 'boolean', default: true },
        kind: { type: 'string', default: 'login', min: 1, max: 50 },
      } } },
  },
  services: { tokens: ({ strapi }) => ({ list: () => strapi.query('plugin::convention.token').findMany({}), missing: async () => strapi.plugins['content-manager'].services }) },
  controllers: {
    tokens: ({ strapi }) => ({
      async find(ctx) { ctx.body = await strapi.plugins.convention.services.tokens.list(); },
      // strapi-plugin-redirects' controller: a service's promise set as the body, unawaited, and here rejected.
      stray(ctx) { ctx.body = strapi.plugins.convention.services.tokens.missing(); },
    }),
  },
  routes: { 'content-api': { type: 'content-api', routes: [
    { method: 'GET', path: '/', handler: 'tokens.find', config: { auth: false } },
    { method: 'GET', path: '/stray', handler: 'tokens.stray', config: { auth: false } },
  ] } },
};
`;

eachDatabase('Strapi plugin conventions', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/plugins/convention/strapi-server.js': PLUGIN_SERVER,
        'config/plugins.js': `module.exports = { convention: { enabled: true, resolve: './src/plugins/convention' } };`,
      },
    });
  });
  after(() => app?.stop());

  it("serves a plugin's GET / at /api/<plugin>, with and without the trailing slash", async () => {
    await app.app.db.query('plugin::convention.token').create({ data: { body: 'abc' } });
    for (const path of ['/api/convention', '/api/convention/']) {
      const response = await app.get(path);
      expect(response.status, path).to.equal(200);
      expect(response.body.map((token: { body: string }) => token.body)).to.deep.equal(['abc']);
    }
  });

  it('answers a promise left as the body as Koa does, and lives on when it rejects', async () => {
    const stray = await app.get('/api/convention/stray');
    expect([stray.status, stray.text]).to.deep.equal([200, '{}']);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await app.get('/api/convention')).status).to.equal(200);
  });

  it('shows services as instances through strapi.plugins and strapi.services', () => {
    const strapi = app.app;
    const handle = strapi.plugin('convention')!;
    const service = strapi.service('plugin::convention.tokens')!;
    // Read as Strapi code reads them: properties of the registries.
    expect(Reflect.get(strapi.plugins, 'convention')).to.equal(handle);
    expect(Reflect.get(strapi.services, 'plugin::convention.tokens')).to.equal(service);
    expect(handle.services.tokens).to.equal(service);
    expect(typeof Reflect.get(service, 'list')).to.equal('function');
  });

  it('answers undefined for a service nobody registered, as Strapi does (plugins probe for optional plugins so)', () => {
    const strapi = app.app;
    expect(strapi.service('plugin::absent-plugin.anything')).to.equal(undefined);
    expect(strapi.service('api::nothing.nothing')).to.equal(undefined);
    expect(strapi.plugin('convention')!.service('no-such-service')).to.equal(undefined);
  });

  it("creates through db.query with the schema's defaults and stores numbers in string attributes as text", async () => {
    const created = await app.app.db.query('plugin::convention.token').create({ data: { body: 7 } });
    expect(created).to.deep.include({ body: '7', is_active: true, kind: 'login' });
    const read = await app.app.db.query('plugin::convention.token').findOne({ where: { body: 7 } });
    expect(read).to.deep.include({ id: created.id, body: '7' });
  });

  it('answers server reads without the authorship stamps unless they are asked for', async () => {
    const created = await app.app.entityService.create('plugin::convention.token', { data: { body: 'stamp' } });
    expect(created).to.not.have.any.keys('createdBy', 'updatedBy');
    const read = await app.app.db.query('plugin::convention.token').findOne({ where: { id: created.id } });
    expect(read).to.have.all.keys('id', 'body', 'is_active', 'kind', 'createdAt', 'updatedAt');
    const stamped = await app.app.db.query('plugin::convention.token').findOne({ where: { id: created.id }, select: ['id', 'createdBy'] });
    expect(stamped).to.deep.equal({ id: created.id, createdBy: null });
  });

  it("hands an entity-service write's other keys to the lifecycle hooks, writes only the attributes", async () => {
    const seen: unknown[] = [];
    const unsubscribe = app.app.db.lifecycles.subscribe({
      models: ['plugin::convention.token'],
      beforeCreate: (event) => void seen.push(['beforeCreate', (event.params.data as Record<string, unknown>).publishAt]),
      beforeUpdate: (event) => void seen.push(['beforeUpdate', (event.params.data as Record<string, unknown>).archiveAt]),
    });
    try {
      const created = await app.app.entityService.create('plugin::convention.token', { data: { body: 'dated', publishAt: '2030-01-01' } });
      expect(created).to.not.have.property('publishAt');
      const updated = await app.app.entityService.update('plugin::convention.token', created.id, { data: { body: 'again', archiveAt: '2031-01-01' } });
      expect(updated).to.deep.include({ body: 'again' }).and.not.have.property('archiveAt');
      expect(seen).to.deep.equal([['beforeCreate', '2030-01-01'], ['beforeUpdate', '2031-01-01']]);
    } finally {
      unsubscribe();
    }
  });
});

import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * What Strapi v4's `src/extensions/<plugin>/strapi-server.js` does to a plugin, on Tessera's own i18n (whose
 * controllers and services are factories of the app) and on a local plugin in Strapi's plain-object format:
 * `plugin.services.<name>.<method>` wrapped (the plugin's own controller then calls the wrapper), an action added to
 * `plugin.controllers.<name>` with its route, an existing action replaced, a policy added to `plugin.policies`.
 */
const I18N_EXTENSION = `
module.exports = (plugin) => {
  const find = plugin.services.locales.find;
  plugin.services.locales.find = async (...args) => (await find(...args)).map((locale) => ({ ...locale, extended: true }));
  plugin.controllers.locales.count = async (ctx) => {
    ctx.body = { count: (await strapi.plugin('i18n').service('locales').find()).length };
  };
  // policyContext.ctx: Tessera's policy context (Strapi's is the Koa context itself; a separate difference).
  plugin.policies['has-key'] = (policyContext) => policyContext.ctx.request.header['x-key'] === 'open';
  plugin.routes['content-api'].routes.push({ method: 'GET', path: '/locales-count', handler: 'locales.count', config: { auth: false, policies: ['plugin::i18n.has-key'] } });
  return plugin;
};
`;

const NOTEBOOK = `
module.exports = {
  controllers: {
    memo: {
      greeting(ctx) { ctx.body = { greeting: 'hello' }; },
    },
  },
  routes: { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/greeting', handler: 'memo.greeting', config: { auth: false } }] } },
};
`;

const NOTEBOOK_EXTENSION = `
module.exports = (plugin) => {
  plugin.controllers.memo.greeting = (ctx) => { ctx.body = { greeting: 'replaced' }; };
  return plugin;
};
`;

eachDatabase('plugin extensions edit controllers, services and policies', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'config/plugins.js': `module.exports = { i18n: { enabled: true }, notebook: { enabled: true, resolve: './src/plugins/notebook' } };`,
        'config/permissions.js': `module.exports = { public: ['plugin::i18n.locales.listLocales'] };`,
        'src/extensions/i18n/strapi-server.js': I18N_EXTENSION,
        'src/plugins/notebook/strapi-server.js': NOTEBOOK,
        'src/extensions/notebook/strapi-server.js': NOTEBOOK_EXTENSION,
      },
    });
  });
  after(() => app.stop());

  it("a wrapped service method of Tessera's i18n is what its own controller calls", async () => {
    const response = await app.get('/api/i18n/locales');
    expect(response.status).to.equal(200);
    expect((response.body as Array<{ code: string; extended: boolean; isDefault: boolean }>).map(({ code, extended, isDefault }) => ({ code, extended, isDefault }))).to.deep.equal([
      { code: 'en', extended: true, isDefault: true },
    ]);
  });

  it('an added action is served by its route, behind an added policy', async () => {
    expect((await app.get('/api/i18n/locales-count', { headers: { 'x-key': 'open' } })).body).to.deep.equal({ count: 1 });
    expect((await app.get('/api/i18n/locales-count')).status).to.equal(403);
  });

  it("a replaced action of a plain-object plugin takes effect", async () => {
    expect((await app.get('/api/notebook/greeting')).body).to.deep.equal({ greeting: 'replaced' });
  });
});

/**
 * `plugin::content-manager.hasPermissions`, the policy Strapi plugins' admin routes name: i18n's locale routes are
 * declared with it, as Strapi 4.26.2's are, and it lets an admin through only with the route's action — an admin
 * whose role lacks `plugin::i18n.locale.read` is refused the ISO list (403 in the admin's envelope) until the role
 * gets it; without a session the answer is 401. A plugin's own admin routes (a local plugin written as for Strapi)
 * are decided on their `:model`: every action, or one with `hasAtLeastOne`; a config Strapi would refuse stops the
 * boot, naming the route. The refusals' bodies are Strapi 4.26.2's (asked of the peer with a
 * role holding no permission: `GET /i18n/iso-locales`, `POST /i18n/locales`, and the first without a token).
 */
import { expect } from 'chai';
import { routeTable } from '@tessera/core';
import { bootError, eachDatabase, type TestApp } from '@tessera/testing';
import { createRole, grant, PEER_FIXTURE, registerFirstAdmin, signInAdmin, startEntriesApp } from './entries-fixture';

const POLICY = 'plugin::content-manager.hasPermissions';
const READ = 'plugin::content-manager.explorer.read';
const DELETE = 'plugin::content-manager.explorer.delete';

/** A local plugin written as for Strapi: admin routes on a `:model`, decided by the content manager's policy. */
const glossaryServer = (everyConfig: string) => `module.exports = () => ({
  controllers: { glossary: () => ({ show(ctx) { ctx.body = { model: ctx.params.model }; } }) },
  routes: {
    admin: {
      type: 'admin',
      routes: [
        { method: 'GET', path: '/every/:model', handler: 'glossary.show', config: { policies: ['admin::isAuthenticatedAdmin', { name: '${POLICY}', config: ${everyConfig} }] } },
        { method: 'GET', path: '/one/:model', handler: 'glossary.show', config: { policies: ['admin::isAuthenticatedAdmin', { name: '${POLICY}', config: { actions: ['${READ}', '${DELETE}'], hasAtLeastOne: true } }] } },
      ],
    },
  },
});
`;
const glossaryFiles = (everyConfig: string) => ({
  'src/plugins/glossary/strapi-server.js': glossaryServer(everyConfig),
  'config/plugins.js': `module.exports = ${JSON.stringify({ glossary: { enabled: true, resolve: './src/plugins/glossary' } })};\n`,
});
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

eachDatabase('content manager: the hasPermissions policy', (dialect) => {
  let app: TestApp;
  let token: string;
  let role: number;
  before(async () => {
    app = await startEntriesApp(dialect, { i18n: true, files: glossaryFiles(`{ actions: ['${READ}', '${DELETE}'] }`) });
    await registerFirstAdmin(app);
    role = await createRole(app, 'Translator');
    token = await signInAdmin(app, { email: 'tina@example.com', firstname: 'Tina', lastname: 'Translator', password: 'Translate123' }, role);
  });
  after(() => app?.stop());

  it("names i18n's locale routes' permission checks, as Strapi's routes do", () => {
    const policyOf = (method: string, path: string) => {
      const row = routeTable(app.app).find((candidate) => candidate.method === method && candidate.path === path);
      return row?.route.config?.policies?.map((policy) => (typeof policy === 'object' ? [policy.name, policy.config] : policy));
    };
    expect([policyOf('GET', '/i18n/iso-locales'), policyOf('POST', '/i18n/locales'), policyOf('GET', '/i18n/locales')]).to.deep.equal([
      ['admin::isAuthenticatedAdmin', [POLICY, { actions: ['plugin::i18n.locale.read'] }]],
      ['admin::isAuthenticatedAdmin', [POLICY, { actions: ['plugin::i18n.locale.create'] }]],
      ['admin::isAuthenticatedAdmin'],
    ]);
  });

  it("refuses a route's action the role does not hold, and lets it through once granted", async () => {
    const refused = await app.get('/i18n/iso-locales', { token });
    const creating = await app.post('/i18n/locales', { code: 'it', name: 'Italian (it)', isDefault: false }, { token });
    expect([refused.status, refused.body, creating.status, creating.body]).to.deep.equal([403, FORBIDDEN, 403, FORBIDDEN]);
    await grant(app, role, [{ action: 'plugin::i18n.locale.read', subject: null, properties: {}, conditions: [] }]);
    const relogged = await app.post('/admin/login', { email: 'tina@example.com', password: 'Translate123' });
    const listed = await app.get('/i18n/iso-locales', { token: relogged.body.data.token });
    expect([listed.status, Array.isArray(listed.body), (listed.body as Array<{ code: string }>).some((locale) => locale.code === 'it')]).to.deep.equal([200, true, true]);
    const stillRefused = await app.post('/i18n/locales', { code: 'it', name: 'Italian (it)', isDefault: false }, { token: relogged.body.data.token });
    expect(stillRefused.status).to.equal(403);
  });

  it("decides a plugin's admin route on its :model: every action, or one of them with hasAtLeastOne", async () => {
    await grant(app, role, [{ action: READ, subject: 'api::page.page', properties: { fields: ['title'], locales: ['fr'] }, conditions: [] }]);
    const answers = async () =>
      Promise.all(['/glossary/every/api::page.page', '/glossary/one/api::page.page', '/glossary/one/api::article.article'].map(async (path) => (await app.get(path, { token })).status));
    expect(await answers()).to.deep.equal([403, 200, 403]);
    await grant(app, role, [{ action: DELETE, subject: 'api::page.page', properties: { locales: ['fr'] }, conditions: [] }]);
    expect(await answers()).to.deep.equal([200, 200, 403]);
    const page = await app.get('/glossary/every/api::page.page', { token });
    expect(page.body).to.deep.equal({ model: 'api::page.page' });
  });

  it('answers 401 without a session', async () => {
    const response = await app.get('/i18n/iso-locales');
    expect([response.status, response.body]).to.deep.equal([401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } }]);
  });
});

describe('plugin::content-manager.hasPermissions config [sqlite]', () => {
  it('stops the boot on a route whose config Strapi would refuse, naming the route', async () => {
    const error = await bootError({ dialect: 'sqlite', from: PEER_FIXTURE, files: { ...glossaryFiles(`{ actions: '${READ}' }`), 'package.json': { name: 'glossary-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2' } } } });
    expect(error.message).to.equal(`route GET /glossary/every/:model: ${POLICY}: config is { actions: string[], hasAtLeastOne?: boolean }`);
  });
});

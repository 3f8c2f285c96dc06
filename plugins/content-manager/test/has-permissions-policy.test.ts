/**
 * `plugin::content-manager.hasPermissions`, the policy Strapi plugins' admin routes name: i18n's locale routes are
 * declared with it, as Strapi 4.26.2's are, and it lets an admin through only with the route's action — an admin
 * whose role lacks `plugin::i18n.locale.read` is refused the ISO list (403 in the admin's envelope) until the role
 * gets it; without a session the answer is 401. The refusals' bodies are Strapi 4.26.2's (asked of the peer with a
 * role holding no permission: `GET /i18n/iso-locales`, `POST /i18n/locales`, and the first without a token).
 */
import { expect } from 'chai';
import { routeTable } from '@tessera/core';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { createRole, grant, registerFirstAdmin, signInAdmin, startEntriesApp } from './entries-fixture';

const POLICY = 'plugin::content-manager.hasPermissions';
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

eachDatabase('content manager: the hasPermissions policy', (dialect) => {
  let app: TestApp;
  let token: string;
  let role: number;
  before(async () => {
    app = await startEntriesApp(dialect, { i18n: true });
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

  it('answers 401 without a session', async () => {
    const response = await app.get('/i18n/iso-locales');
    expect([response.status, response.body]).to.deep.equal([401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } }]);
  });
});

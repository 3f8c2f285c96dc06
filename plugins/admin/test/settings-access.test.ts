/**
 * Who may use the API-token and webhook routes, as Strapi 4.26.2 declares
 * them: each route's `admin::hasPermissions` action (an admin holding only
 * the read actions reads and changes nothing), the custom-token catalogue for
 * any signed-in admin, content-API credentials refused; and a fixed number of
 * statements per request whatever the number of rows.
 */
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { eachDatabase, type TestApp } from '@tessera/testing';
import type { AdminApiTokenService } from '@tessera/core';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { startSettingsApp } from './settings-fixture';

const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const PASSWORD = 'Secret123';

eachDatabase('admin API tokens and webhooks: who may, and at what cost', (dialect) => {
  let app: TestApp;
  let superJwt: string;
  const jwt: Record<string, string> = {};

  async function addAdmin(name: string, roles: number[]): Promise<void> {
    const password = await bcrypt.hash(PASSWORD, 10);
    await app.app.db.query(USER_UID).create({ data: { email: `${name}@example.com`, firstname: name, password, isActive: true, blocked: false, roles } });
    const login = await app.post('/admin/login', { email: `${name}@example.com`, password: PASSWORD });
    jwt[name] = login.body.data.token;
  }

  before(async () => {
    ({ app, jwt: superJwt } = await startSettingsApp(dialect));
    const role = (await app.app.db.query(ROLE_UID).create({ data: { name: 'Readers', code: 'readers', description: '' } })).id;
    for (const action of ['admin::api-tokens.read', 'admin::webhooks.read']) {
      await app.app.db.query(PERMISSION_UID).create({ data: { action, actionParameters: {}, subject: null, properties: {}, conditions: [], role } });
    }
    await addAdmin('reader', [role]);
    await addAdmin('nobody', []);
    await app.app.service<AdminApiTokenService>('admin::api-token')!.create({ name: 'existing', type: 'read-only' });
    await app.app.webhookStore.createWebhook({ name: 'existing', url: 'http://127.0.0.1:9/hook', headers: {}, events: ['entry.create'] });
  });
  after(() => app?.stop());

  it('lets an admin holding the read actions read, and refuses every change with a 403, writing nothing', async () => {
    expect((await app.get('/admin/api-tokens', { token: jwt.reader })).status).to.equal(200);
    expect((await app.get('/admin/api-tokens/1', { token: jwt.reader })).status).to.equal(200);
    expect((await app.get('/admin/webhooks', { token: jwt.reader })).status).to.equal(200);
    const changes: Array<[string, string, unknown?]> = [
      ['POST', '/admin/api-tokens', { name: 'mine', type: 'full-access' }],
      ['PUT', '/admin/api-tokens/1', { name: 'renamed' }],
      ['POST', '/admin/api-tokens/1/regenerate'],
      ['DELETE', '/admin/api-tokens/1'],
      ['POST', '/admin/webhooks', { name: 'mine', url: 'http://127.0.0.1:9/x', headers: {}, events: [] }],
      ['PUT', '/admin/webhooks/1', { name: 'renamed', url: 'http://127.0.0.1:9/x', headers: {}, events: [] }],
      ['POST', '/admin/webhooks/1/trigger'],
      ['POST', '/admin/webhooks/batch-delete', { ids: [1] }],
      ['DELETE', '/admin/webhooks/1'],
    ];
    for (const [method, path, body] of changes) {
      const response = await app.request(method, path, { body, token: jwt.reader });
      expect([method, path, response.status, response.body]).to.deep.equal([method, path, 403, FORBIDDEN]);
    }
    expect((await app.app.apiTokens.list()).map((token) => token.name)).to.deep.equal(['existing']);
    expect((await app.app.webhookStore.findWebhooks()).map((webhook) => webhook.name)).to.deep.equal(['existing']);
  });

  it('refuses an admin without the read actions, and answers the token catalogue to any signed-in admin (as Strapi declares it)', async () => {
    expect((await app.get('/admin/api-tokens', { token: jwt.nobody })).body).to.deep.equal(FORBIDDEN);
    expect((await app.get('/admin/webhooks', { token: jwt.nobody })).body).to.deep.equal(FORBIDDEN);
    expect((await app.get('/admin/content-api/permissions', { token: jwt.nobody })).status).to.equal(200);
    expect((await app.get('/admin/content-api/routes', { token: jwt.nobody })).status).to.equal(200);
  });

  it('refuses content-API credentials on these routes (401), as every admin route does', async () => {
    const token = await app.fullAccessToken();
    for (const path of ['/admin/api-tokens', '/admin/webhooks', '/admin/content-api/permissions']) {
      expect((await app.get(path, { token })).status, path).to.equal(401);
    }
  });

  it('runs a fixed number of statements per request, whatever the number of tokens or webhooks', async () => {
    const statements = async (method: string, path: string, body?: unknown): Promise<number> => {
      const seen: string[] = [];
      const stop = app.app.db.sql.onQuery((sql) => seen.push(sql));
      try {
        expect((await app.request(method, path, { body, token: superJwt })).status).to.be.oneOf([200, 201]);
      } finally {
        stop();
      }
      return seen.length;
    };
    const tokens = app.app.service<AdminApiTokenService>('admin::api-token')!;
    const fewTokens = await statements('GET', '/admin/api-tokens');
    for (let index = 0; index < 5; index++) await tokens.create({ name: `custom-${index}`, type: 'custom', permissions: ['api::note.note.find', 'api::tag.tag.find'] });
    expect(await statements('GET', '/admin/api-tokens')).to.equal(fewTokens);

    const fewWebhooks = await statements('GET', '/admin/webhooks');
    const created = [];
    for (let index = 0; index < 5; index++) created.push(await app.app.webhookStore.createWebhook({ name: `w${index}`, url: 'http://127.0.0.1:9/hook', headers: {}, events: [] }));
    expect(await statements('GET', '/admin/webhooks')).to.equal(fewWebhooks);
    const deleteOne = await statements('POST', '/admin/webhooks/batch-delete', { ids: [created[0]!.id] });
    expect(await statements('POST', '/admin/webhooks/batch-delete', { ids: created.slice(1).map((webhook) => webhook.id) })).to.equal(deleteOne);
  });
});

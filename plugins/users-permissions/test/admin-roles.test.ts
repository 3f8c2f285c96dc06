/**
 * Settings → Users & Permissions → Roles, as the panel calls it: Strapi 4.26.2's admin routes
 * (`/users-permissions/roles…`, `/permissions`, `/routes`, `/policies`) answered as the peer answered the same
 * requests (strapi-4.26.2-admin-settings.json), on each database. A role granted or revoked here is what the content
 * API decides at once; the admin routes answer admins only, and the content API's role routes keep their own rule.
 */
import bcrypt from 'bcryptjs';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { FORBIDDEN, startUpApp, UNAUTHORIZED } from './fixture';
import { normalised, recorded, startAdminApp } from './admin-fixture';

const ROLE_KEYS = ['id', 'name', 'description', 'type', 'createdAt', 'updatedAt'];

eachDatabase('users-permissions admin: roles, permissions, routes (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let admin: string;
  before(async () => {
    ({ app, admin } = await startAdminApp(dialect));
  });
  after(() => app?.stop());

  const as = { get token() {
    return admin;
  } };

  it('lists the roles with nb_users, in id order, keys as Strapi', async () => {
    const list = await app.get('/users-permissions/roles', as);
    expect(list.status).to.equal(200);
    expect(normalised(list.body)).to.deep.equal(recorded('roles list').response);
  });

  it('answers a role with its permission tree; a missing or malformed id is Strapi\'s 404', async () => {
    const role = await app.get('/users-permissions/roles/1', as);
    const expected = recorded('role get authenticated').response.role;
    expect(Object.keys(role.body.role)).to.deep.equal([...ROLE_KEYS, 'permissions']);
    const { permissions: tree, ...fields } = role.body.role;
    const { permissions: _recordedTree, ...recordedFields } = expected;
    expect(normalised(fields)).to.deep.equal(recordedFields);
    // The peer's model has api::article, this app api::post: the same five core actions, none granted.
    expect(tree['api::post'].controllers.post).to.deep.equal(expected.permissions['api::article'].controllers.article);
    expect(tree['plugin::users-permissions'].controllers.user.me).to.deep.equal({ enabled: true, policy: '' });
    for (const name of ['role get missing', 'role get not a number']) {
      const exchange = recorded(name);
      const response = await app.get(exchange.path, as);
      expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.response]);
    }
  });

  it('lists the actions a role can be granted, the routes bound to them, and no policies', async () => {
    const permissions = await app.get('/users-permissions/permissions', as);
    expect(permissions.body.permissions['api::post'].controllers.post).to.deep.equal(recorded('permissions').response.permissions['api::article'].controllers.article);
    const routes = await app.get('/users-permissions/routes', as);
    const recordedFind = recorded('routes').response.routes['api::article'][0];
    expect(routes.body.routes['api::post'][0]).to.deep.equal({
      ...recordedFind,
      path: '/api/posts',
      handler: 'api::post.post.find',
      config: { auth: { scope: ['api::post.post.find'] } },
      info: { ...recordedFind.info, apiName: 'post' },
    });
    const me = routes.body.routes['plugin::users-permissions'].find((route: { handler: string }) => route.handler === 'user.me');
    expect(me).to.deep.equal({ method: 'GET', path: '/api/users/me', handler: 'user.me', config: { prefix: '', auth: { scope: ['plugin::users-permissions.user.me'] } }, info: { pluginName: 'users-permissions', type: 'content-api' } });
    expect((await app.get('/users-permissions/policies', as)).body).to.deep.equal(recorded('policies').response);
  });

  it('creates, updates and deletes a role; the content API follows each change at once', async () => {
    for (const name of ['role create empty', 'role update empty']) {
      const exchange = recorded(name);
      const response = await app.request(exchange.method, exchange.path.replace(/\/\d+$/, '/1'), { ...as, body: exchange.body });
      expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.response]);
    }
    const create = recorded('role create');
    const created = await app.post('/users-permissions/roles', { ...(create.body as object), permissions: { 'api::post': { controllers: { post: { create: { enabled: true, policy: '' } } } } } }, as);
    expect([created.status, created.body]).to.deep.equal([create.status, create.response]);
    const list = (await app.get('/users-permissions/roles', as)).body.roles;
    expect(normalised(list)).to.deep.equal(recorded('roles list after create').response.roles.slice(0, 3));
    const id = list[2].id as number;

    const update = recorded('role update');
    const updated = await app.put(`/users-permissions/roles/${id}`, { ...(update.body as object), permissions: { 'api::post': { controllers: { post: { find: { enabled: true }, create: { enabled: true } } } } } }, as);
    expect([updated.status, updated.body]).to.deep.equal([update.status, update.response]);
    const role = (await app.get(`/users-permissions/roles/${id}`, as)).body.role;
    expect([role.name, role.description, role.type]).to.deep.equal(['Editors', 'Edit', 'editor_crew']);
    expect(role.permissions['api::post'].controllers.post).to.deep.include({ find: { enabled: true, policy: '' }, create: { enabled: true, policy: '' }, findOne: { enabled: false, policy: '' } });

    // The public role, edited as the panel's Public page does: create granted → an anonymous create succeeds; revoked → 403.
    const grant = (enabled: boolean) => app.put('/users-permissions/roles/2', { name: 'Public', description: 'Default role given to unauthenticated user.', permissions: { 'api::post': { controllers: { post: { find: { enabled: true }, findOne: { enabled: true }, create: { enabled } } } } } }, as);
    expect((await grant(true)).body).to.deep.equal({ ok: true });
    expect((await app.post('/api/posts', { data: { title: 'from anyone' } })).status).to.equal(200);
    expect((await grant(false)).body).to.deep.equal({ ok: true });
    expect((await app.post('/api/posts', { data: { title: 'refused' } })).body).to.deep.equal(FORBIDDEN);

    for (const name of ['role update missing', 'role delete public', 'role delete missing']) {
      const exchange = recorded(name);
      const response = await app.request(exchange.method, exchange.path, { ...as, body: exchange.body });
      expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.response]);
    }
    const removed = await app.delete(`/users-permissions/roles/${id}`, as);
    expect([removed.status, removed.body]).to.deep.equal([recorded('role delete').status, recorded('role delete').response]);
    expect((await app.get('/users-permissions/roles', as)).body.roles.map((entry: { type: string }) => entry.type)).to.deep.equal(['authenticated', 'public']);
  });

  it('a bad body is a 400 that changes nothing', async () => {
    const before = (await app.get('/users-permissions/roles/2', as)).body;
    const huge = Object.fromEntries(Array.from({ length: 5001 }, (_, index) => [`a${index}`, { enabled: true }]));
    for (const body of [
      { name: 'x' },
      { name: 'Public', permissions: { 'api::post': { controllers: { post: { find: { enabled: 'yes' } } } } } },
      { name: 'Public', permissions: [] },
      { name: 'Public', permissions: { 'api::post': { controllers: { post: huge } } } },
    ]) {
      const response = await app.put('/users-permissions/roles/2', body, as);
      expect(response.status, JSON.stringify(body).slice(0, 200)).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
    }
    expect((await app.get('/users-permissions/roles/2', as)).body).to.deep.equal(before);
  });

  it('answers admins only: no credential is 401, a content-API credential is 401; the content API\'s role routes keep their rule', async () => {
    for (const name of ['roles anonymous', 'role delete authenticated', 'advanced anonymous']) {
      const exchange = recorded(name);
      const response = await app.request(exchange.method, exchange.path);
      expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.response]);
    }
    const full = await app.fullAccessToken();
    expect((await app.get('/users-permissions/roles', { token: full })).body).to.deep.equal(UNAUTHORIZED);
    const anonymous = recorded('content-api roles anonymous');
    expect((await app.get('/api/users-permissions/roles')).body).to.deep.equal(anonymous.response);
    // An admin's token is no content-API credential (Strapi 4.26.2: 401).
    const withAdmin = recorded('content-api roles admin token');
    const response = await app.get('/api/users-permissions/roles', as);
    expect([response.status, response.body]).to.deep.equal([withAdmin.status, withAdmin.response]);
    expect((await app.get('/api/users-permissions/roles', { token: full })).body.roles.length).to.equal(2);
  });

  it('an API-only app (no @strapi/admin) serves no admin side: the admin routes are not there', async () => {
    const apiOnly = await startUpApp(dialect);
    try {
      for (const path of ['/users-permissions/roles', '/users-permissions/advanced', '/email/settings']) expect((await apiOnly.get(path)).status, path).to.equal(404);
      expect((await apiOnly.get('/api/users-permissions/roles', { token: await apiOnly.fullAccessToken() })).status).to.equal(200);
    } finally {
      await apiOnly.stop();
    }
  });

  it('the roles list and the advanced settings cost the same SQL for 2 roles or 6', async () => {
    const queriesOf = async (path: string): Promise<number> => {
      let count = 0;
      const stop = app.app.db.sql.onQuery(() => (count += 1));
      try {
        expect((await app.get(path, as)).status).to.equal(200);
      } finally {
        stop();
      }
      return count;
    };
    const few = [await queriesOf('/users-permissions/roles'), await queriesOf('/users-permissions/advanced')];
    for (const name of ['Role One', 'Role Two', 'Role Three', 'Role Four']) expect((await app.post('/users-permissions/roles', { name }, as)).body).to.deep.equal({ ok: true });
    const many = [await queriesOf('/users-permissions/roles'), await queriesOf('/users-permissions/advanced')];
    expect(many).to.deep.equal(few);
  });

  it('an Editor admin is refused (403) until its role holds the route\'s action, and then for that action only', async () => {
    const editor = await app.app.db.query('admin::role').findOne({ where: { code: 'strapi-editor' }, select: ['id'] });
    const data = { firstname: 'Eve', lastname: 'Editor', email: 'eve@example.com', password: bcrypt.hashSync('Passw0rd!x', 10), isActive: true, roles: [editor!.id] };
    await app.app.db.query('admin::user').create({ data });
    const login = await app.post('/admin/login', { email: 'eve@example.com', password: 'Passw0rd!x' });
    const eve = { token: login.body.data.token as string };
    for (const path of ['/users-permissions/roles', '/users-permissions/advanced', '/users-permissions/email-templates', '/users-permissions/providers']) {
      expect((await app.get(path, eve)).body, path).to.deep.equal(FORBIDDEN);
    }
    await app.app.db.query('admin::permission').create({ data: { action: 'plugin::users-permissions.roles.read', role: editor!.id, properties: {}, conditions: [] } });
    expect((await app.get('/users-permissions/roles', eve)).status).to.equal(200);
    expect((await app.post('/users-permissions/roles', { name: 'Sneaky' }, eve)).body).to.deep.equal(FORBIDDEN);
    expect((await app.get('/users-permissions/advanced', eve)).body).to.deep.equal(FORBIDDEN);
  });
});

/**
 * Admin roles and their permissions as Strapi 4.26.2 answers them
 * (recorded/strapi-4.26.2-roles.json: a sequence replayed in order on the
 * peer's own app, its model and plugins): list with users counts, read,
 * create, rename, delete one or many, a role's permissions read and replaced,
 * every refusal and body check; then the role editor's sections and the
 * default roles' permissions (recorded/strapi-4.26.2-permissions.json), and
 * what Tessera adds: nobody adds permissions to a role they hold.
 */
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { addLocales, normalise, peerModelFiles, withoutTransfer } from './fixture';
import recordedRoles from './recorded/strapi-4.26.2-roles.json';
import recordedChecks from './recorded/strapi-4.26.2-permissions-check.json';

eachDatabase('admin roles and permissions (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};

  before(async () => {
    app = await startApp({ dialect, files: peerModelFiles(), config: { admin: { auth: { secret: 'admin-roles-secret' } } } });
    await addLocales(app);
    const registered = await app.post('/admin/register-admin', { email: 'super@example.com', firstname: 'Super', lastname: 'Admin', password: 'Super1234' });
    tokens.super = registered.body.data.token;
    const author = (await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
    const password = await bcrypt.hash('Author1234', 10);
    await app.app.db.query(USER_UID).create({ data: { email: 'author@example.com', firstname: 'Au', lastname: 'Thor', password, isActive: true, blocked: false, roles: [author] } });
    tokens.author = (await app.post('/admin/login', { email: 'author@example.com', password: 'Author1234' })).body.data.token;
  });
  after(() => app?.stop());

  // One sequence: each step sees what the ones before it did, as on the peer.
  it('answers the recorded sequence as Strapi did, step by step', async () => {
    for (const step of recordedRoles.steps) {
      const response = await app.request(step.method, step.path, { body: 'body' in step ? step.body : undefined, token: tokens[step.as ?? 'super'] });
      const expected = step.path === '/admin/permissions' ? withoutTransfer(step.answer) : step.answer;
      expect([response.status, normalise(response.body)], step.title).to.deep.equal([step.status, normalise(expected)]);
    }
  });

  it('checks permissions for the signed-in admin as Strapi does (POST /admin/permissions/check)', async () => {
    for (const step of recordedChecks.steps) {
      const response = await app.post('/admin/permissions/check', step.body, { token: tokens.author });
      expect([response.status, response.body], step.title).to.deep.equal([step.status, step.answer]);
    }
    const missing = await app.post('/admin/permissions/check', {}, { token: tokens.author });
    expect([missing.status, missing.body.error.message]).to.deep.equal([400, 'permissions is a required field']);
  });

  it('answers with a fixed number of queries, whatever the number of roles, users and permissions', async () => {
    const statements = async (path: string, token: string) => {
      const sql: string[] = [];
      const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
      await app.get(path, { token });
      unsubscribe();
      return sql.length;
    };
    const measure = async () => [await statements('/admin/roles', tokens.super), await statements('/admin/users/me', tokens.author), await statements('/admin/permissions', tokens.author)];
    const before = await measure();
    const author = (await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
    for (const name of ['More 1', 'More 2', 'More 3']) await app.post('/admin/roles', { name }, { token: tokens.super });
    const password = await bcrypt.hash('Author1234', 10);
    await app.app.db.query(USER_UID).create({ data: { email: 'second.author@example.com', firstname: 'Second', password, isActive: true, roles: [author] } });
    for (const action of ['admin::webhooks.read', 'admin::webhooks.create', 'admin::users.read']) {
      await app.app.db.query('admin::permission').create({ data: { action, actionParameters: {}, subject: null, properties: {}, conditions: [], role: author } });
    }
    expect(await measure()).to.deep.equal(before);
  });

  it('refuses a role holder adding permissions to its own role (no route gives a user more than it holds)', async () => {
    const role = (await app.post('/admin/roles', { name: 'Self granting' }, { token: tokens.super })).body.data;
    const managers = [{ action: 'admin::roles.read' }, { action: 'admin::roles.update' }];
    await app.put(`/admin/roles/${role.id}/permissions`, { permissions: managers }, { token: tokens.super });
    const password = await bcrypt.hash('Manager1234', 10);
    await app.app.db.query(USER_UID).create({ data: { email: 'manager@example.com', firstname: 'Man', password, isActive: true, blocked: false, roles: [role.id] } });
    const token = (await app.post('/admin/login', { email: 'manager@example.com', password: 'Manager1234' })).body.data.token;
    const more = await app.put(`/admin/roles/${role.id}/permissions`, { permissions: [...managers, { action: 'admin::users.delete' }] }, { token });
    expect([more.status, more.body.error.message]).to.deep.equal([403, 'Forbidden']);
    const held = (await app.get(`/admin/roles/${role.id}/permissions`, { token })).body.data.map((permission: { action: string }) => permission.action);
    expect(held).to.deep.equal(['admin::roles.read', 'admin::roles.update']);
    // Giving up one it holds is fine, and so is editing a role it does not hold.
    expect((await app.put(`/admin/roles/${role.id}/permissions`, { permissions: [managers[1]] }, { token })).status).to.equal(200);
    expect((await app.put('/admin/roles/2/permissions', { permissions: [{ action: 'admin::webhooks.read' }] }, { token })).status).to.equal(200);
  });

  it('answers any body on the role write routes with a 4xx, never a 500', async () => {
    const bodies: unknown[] = [null, [], 'x', 42, { name: { a: 1 } }, { name: 'n'.repeat(300) }, { permissions: [null] }, { permissions: [{ action: 5 }] }, { permissions: [{ action: 'plugin::content-manager.explorer.read', subject: 'api::note.note', properties: { fields: ['title', 'title'] } }] }, { permissions: [{ action: 'admin::webhooks.read', conditions: 'x' }] }, { ids: 'x' }, { ids: [{}] }];
    for (const body of bodies) {
      for (const [method, path] of [['POST', '/admin/roles'], ['PUT', '/admin/roles/2'], ['PUT', '/admin/roles/2/permissions'], ['POST', '/admin/roles/batch-delete']]) {
        const response = await app.request(method, path, { body, token: tokens.super });
        expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).to.be.within(200, 499);
        if (response.status >= 400) expect(response.body.error.status).to.equal(response.status);
      }
    }
  });
});

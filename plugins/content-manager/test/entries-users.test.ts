/**
 * The content manager's create and update of a users-permissions user, which Strapi hands to that plugin's
 * `contentManagerUser` controller (`layout.user.actions`): Strapi 4.26.2's answers, recorded on the peer
 * (2026-11-30), replayed here, and the user made in the panel signs in with its password.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerFirstAdmin, startEntriesApp } from './entries-fixture';

const USERS = '/content-manager/collection-types/plugin::users-permissions.user';
const issue = (path: string[], message: string) => ({ path, message, name: 'ValidationError' });

eachDatabase('content manager entries: users-permissions users through its contentManagerUser controller', (dialect) => {
  let app: TestApp;
  let token: string;
  let carol = 0;
  before(async () => {
    app = await startEntriesApp(dialect, { usersPermissions: true });
    token = await registerFirstAdmin(app);
    expect((await app.post(USERS, { username: 'bob', email: 'bob@example.com', password: 'Secret123', role: { connect: [{ id: 1 }] } }, { token })).status).to.equal(201);
  });
  after(() => app?.stop());

  it('creates a user as Strapi does: 201, the email lower-cased, provider local, and it signs in', async () => {
    const created = await app.post(USERS, { username: 'carol', email: 'Carol@Example.com', password: 'Secret123', confirmed: false, blocked: false, role: { connect: [{ id: 2 }], disconnect: [] } }, { token });
    expect(created.status, created.text).to.equal(201);
    carol = created.body.id;
    expect(created.body).to.deep.include({ username: 'carol', email: 'carol@example.com', confirmed: false, blocked: false, role: { count: 1 } });
    const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { id: carol }, select: ['provider'] });
    expect(stored?.provider).to.equal('local');
    const login = await app.post('/api/auth/local', { identifier: 'carol@example.com', password: 'Secret123' });
    expect([login.status, login.body.user?.username]).to.deep.equal([200, 'carol']);
  });

  it("refuses a create's body with Strapi's messages", async () => {
    const refusals: Array<[Record<string, unknown>, string, string, unknown]> = [
      [{}, 'ValidationError', '4 errors occurred', { errors: [issue(['email'], 'email is a required field'), issue(['username'], 'username is a required field'), issue(['password'], 'password is a required field'), issue(['role'], 'role is a required field')] }],
      [{ username: 'bob2', email: 'Bob2@Example.com', password: 'x', role: { connect: [], disconnect: [] } }, 'ValidationError', 'Users must have a role', { errors: [issue(['role', 'connect'], 'Users must have a role')] }],
      [{ username: 'bob', email: 'new@example.com', password: 'x', role: { connect: [{ id: 1 }] } }, 'ApplicationError', 'Username already taken', {}],
      [{ username: 'bob3', email: 'BOB@example.com', password: 'x', role: { connect: [{ id: 1 }] } }, 'ApplicationError', 'Email already taken', {}],
      [{ username: 'bob4', email: 'Bob4@Example.com', password: 'x', role: { connect: [{ id: 2 }], disconnect: [] } }, 'ApplicationError', 'password must be at least 6 characters', {}],
      [{ username: 'bob5', email: 'not-an-email', password: '', role: 1 }, 'ValidationError', '3 errors occurred', { errors: [issue(['email'], 'email must be a valid email'), issue(['password'], 'password must be at least 1 characters'), issue(['password'], 'password is a required field')] }],
    ];
    for (const [body, name, message, details] of refusals) {
      const refused = await app.post(USERS, body, { token });
      expect([refused.status, refused.body.error], JSON.stringify(body)).to.deep.equal([400, { status: 400, name, message, details }]);
    }
    expect(await app.app.db.query('plugin::users-permissions.user').count({})).to.equal(2);
  });

  it("refuses an update's body with Strapi's messages, and keeps hidden fields as they were", async () => {
    const refusals: Array<[Record<string, unknown>, string, string, unknown]> = [
      [{ username: 'bob' }, 'ApplicationError', 'Username already taken', {}],
      [{ password: '' }, 'ValidationError', 'password must be at least 1 characters', { errors: [issue(['password'], 'password must be at least 1 characters')] }],
      [{ email: 'BOB@EXAMPLE.COM' }, 'ApplicationError', 'Email already taken', {}],
      [{ role: { connect: [], disconnect: [{ id: 2 }] } }, 'ValidationError', 'Cannot remove role', { errors: [issue(['role', 'disconnect'], 'Cannot remove role')] }],
      [{ email: 'bad' }, 'ValidationError', 'email must be a valid email', { errors: [issue(['email'], 'email must be a valid email')] }],
    ];
    for (const [body, name, message, details] of refusals) {
      const refused = await app.put(`${USERS}/${carol}`, body, { token });
      expect([refused.status, refused.body.error], JSON.stringify(body)).to.deep.equal([400, { status: 400, name, message, details }]);
    }
    const updated = await app.put(`${USERS}/${carol}`, { username: 'carol2', email: 'Carol2@X.com', provider: 'github', resetPasswordToken: 't' }, { token });
    expect([updated.status, updated.body.username, updated.body.email]).to.deep.equal([200, 'carol2', 'carol2@x.com']);
    const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { id: carol }, select: ['provider', 'resetPasswordToken'] });
    expect([stored?.provider, stored?.resetPasswordToken]).to.deep.equal(['local', null]);
  });
});

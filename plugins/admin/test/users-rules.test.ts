/**
 * What the recording cannot show, on each database: the last Super Admin
 * kept when two requests race to remove the last two, an invitation or a
 * reset link used once when two requests race with it, the Users list at a
 * fixed number of queries whatever a page holds, any body on the new write
 * routes a 4xx (never a 500), a failed write changing nothing, neither kind
 * of credential standing in for the other, and no admin giving a role that
 * holds more than it does (a rule Strapi lacks).
 */
import { expect } from 'chai';
import { routeTable, summarize } from '@tessera/core';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { ADMIN_APP_FILES } from './fixture';

const OWNER = { email: 'owner@example.com', firstname: 'Owner', lastname: 'One', password: 'Secret123' };

eachDatabase('admin users: races, query count, bad input', (dialect) => {
  let app: TestApp;
  let token: string;
  const invite = async (email: string, roles: number[]) => {
    const answer = await app.post('/admin/users', { email, firstname: email.split('@')[0], roles }, { token });
    expect(answer.status, answer.text).to.equal(201);
    return answer.body.data as { id: number; registrationToken: string };
  };

  before(async () => {
    app = await startApp({ dialect, files: ADMIN_APP_FILES, config: { admin: { auth: { secret: 'admin-rules-secret' } } } });
    token = (await app.post('/admin/register-admin', OWNER)).body.data.token;
  });
  after(() => app?.stop());

  it('keeps one Super Admin when two requests remove the last two at once', async () => {
    const second = await invite('second@example.com', [1]);
    const answers = await Promise.all([app.request('DELETE', `/admin/users/${second.id}`, { token }), app.request('PUT', '/admin/users/1', { body: { roles: [2] }, token })]);
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 400]);
    const refused = answers.find((answer) => answer.status === 400)!;
    expect(refused.body.error.message).to.equal('You must have at least one user with super admin role.');
    const superAdmins = await app.app.db.query(USER_UID).count({ where: { roles: { code: 'strapi-super-admin' } } });
    expect(superAdmins).to.equal(1);
    // When the demotion won, the owner is an Editor now: the tests below need it Super Admin again.
    await app.app.db.query(USER_UID).update({ where: { id: 1 }, data: { roles: [1] } });
  });

  it('creates one user when two invitations race with one email (in other capitals)', async () => {
    const body = (email: string) => ({ email, firstname: 'Twin', roles: [2] });
    const answers = await Promise.all([app.post('/admin/users', body('twin@example.com'), { token }), app.post('/admin/users', body('Twin@Example.com'), { token })]);
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([201, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.error.message).to.equal('Email already taken');
    expect(await app.app.db.query(USER_UID).count({ where: { email: 'twin@example.com' } })).to.equal(1);
  });

  it('lets one of two racing registrations use an invitation', async () => {
    const invited = await invite('racer@example.com', [2]);
    const body = (password: string) => ({ registrationToken: invited.registrationToken, userInfo: { firstname: 'Racer', password } });
    const answers = await Promise.all([app.post('/admin/register', body('RacerOne1')), app.post('/admin/register', body('RacerTwo2'))]);
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.error.message).to.equal('Invalid registration info');
    const winner = answers.findIndex((answer) => answer.status === 200) === 0 ? 'RacerOne1' : 'RacerTwo2';
    expect((await app.post('/admin/login', { email: 'racer@example.com', password: winner })).status).to.equal(200);
  });

  it('lists a page of 40 users with the same number of queries as a page of 2', async () => {
    for (let n = 0; n < 40; n += 1) await invite(`user${n}@example.com`, n % 2 === 0 ? [2] : [2, 3]);
    const count = async (pageSize: number) => {
      const statements: string[] = [];
      const stop = app.app.db.sql.onQuery((sql) => statements.push(sql));
      try {
        const answer = await app.get(`/admin/users?page=1&pageSize=${pageSize}&sort=firstname&_q=user`, { token });
        expect(answer.body.data.results).to.have.length(pageSize);
        return { statements: statements.length, answer: answer.body.data };
      } finally {
        stop();
      }
    };
    const small = await count(2);
    const large = await count(40);
    expect(large.statements).to.equal(small.statements);
    const odd = large.answer.results.find((user: { email: string }) => user.email === 'user1@example.com');
    expect(odd.roles.map((role: { code: string }) => role.code)).to.deep.equal(['strapi-editor', 'strapi-author']);
    expect(large.answer.pagination).to.deep.equal({ page: 1, pageSize: 40, pageCount: 1, total: 40 });
  });

  it('answers any body on the new write routes with a 4xx in the error envelope, and a failed write changes nothing', async () => {
    const before = await app.app.db.query(USER_UID).findMany({ orderBy: [{ id: 'asc' }] });
    const bodies = ['"text"', '42', 'null', '[]', '[{"a":1}]', '{"email":{"$ne":1}}', '{"roles":[{"$gt":0}],"email":"x@example.com","firstname":"X"}', '{"ids":[{"$ne":0}]}', '{"ids":"1"}',
      '{"userInfo":[],"registrationToken":{"$ne":null}}', '{"resetPasswordToken":{"$ne":null},"password":"Secret123"}', `{"email":"${'a'.repeat(5000)}@x.io","firstname":"${'b'.repeat(5000)}"}`, '{broken'];
    const routes: Array<[string, string]> = [['POST', '/admin/users'], ['PUT', '/admin/users/2'], ['POST', '/admin/users/batch-delete'], ['POST', '/admin/register'], ['POST', '/admin/forgot-password'], ['POST', '/admin/reset-password']];
    for (const [method, path] of routes) {
      for (const rawBody of bodies) {
        const answer = await app.request(method, path, { rawBody, token });
        expect(answer.status, `${method} ${path} ${rawBody.slice(0, 40)}: ${answer.text.slice(0, 200)}`).to.be.within(400, 499);
        expect(answer.body.error, `${method} ${path} ${rawBody.slice(0, 40)}`).to.include.keys('status', 'name', 'message');
      }
    }
    for (const query of ['registrationToken[$ne]=x', 'registrationToken=', 'registrationToken[]=a&registrationToken[]=b']) {
      expect((await app.get(`/admin/registration-info?${query}`)).status, query).to.equal(400);
    }
    for (const query of ['filters[$or]=1', 'filters[$and][0][email][$null]=false', 'sort[0][firstname]=asc', 'sort=firstname:asc:x', 'page=1e3', 'pageSize=-1', `_q=${'x'.repeat(3000)}`]) {
      const answer = await app.get(`/admin/users?${query}`, { token });
      expect(answer.status, `${query}: ${answer.text.slice(0, 200)}`).to.be.oneOf([200, 400]);
    }
    // A batch naming one missing user deletes none of the others.
    expect((await app.post('/admin/users/batch-delete', { ids: [3, 4, 999999] }, { token })).status).to.equal(404);
    expect(await app.app.db.query(USER_UID).findMany({ orderBy: [{ id: 'asc' }] })).to.deep.equal(before);
  });

  it('lets an admin who is no Super Admin give only roles within its own permissions', async () => {
    const role = async (name: string, actions: string[]) => {
      const id = (await app.app.db.query(ROLE_UID).create({ data: { name, code: name.toLowerCase(), description: name } })).id;
      for (const action of actions) await app.app.db.query(PERMISSION_UID).create({ data: { action, subject: null, properties: {}, conditions: [], actionParameters: {}, role: id } });
      return id;
    };
    const recruiterRole = await role('Recruiter', ['admin::users.create', 'admin::users.read', 'admin::users.update']);
    const viewerRole = await role('Viewer', []);
    const rolesRole = await role('Role manager', ['admin::users.read', 'admin::roles.update']);
    const recruiter = await invite('recruiter@example.com', [recruiterRole]);
    await app.post('/admin/register', { registrationToken: recruiter.registrationToken, userInfo: { firstname: 'Rec', password: 'Recruit123' } });
    const recruiterToken = (await app.post('/admin/login', { email: 'recruiter@example.com', password: 'Recruit123' })).body.data.token;
    const usersBefore = await app.app.db.query(USER_UID).count({});
    const asRecruiter = (roles: number[], email = 'new.one@example.com') => app.post('/admin/users', { email, firstname: 'New', roles }, { token: recruiterToken });
    const forbidden = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
    expect([(await asRecruiter([1])).status, (await asRecruiter([1])).body]).to.deep.equal([403, forbidden]);
    expect((await asRecruiter([viewerRole, rolesRole])).status).to.equal(403);
    expect(await app.app.db.query(USER_UID).count({})).to.equal(usersBefore);
    // Its own permissions, or fewer, it may give.
    expect((await asRecruiter([viewerRole])).status).to.equal(201);
    expect((await asRecruiter([recruiterRole], 'another@example.com')).status).to.equal(201);
    // Nor may it raise its own roles.
    const raise = await app.put(`/admin/users/${recruiter.id}`, { roles: [recruiterRole, 1] }, { token: recruiterToken });
    expect([raise.status, raise.body]).to.deep.equal([403, forbidden]);
    const held = await app.app.db.query(ROLE_UID).findMany({ where: { users: { id: recruiter.id } }, select: ['id'] });
    expect(held.map((row) => row.id)).to.deep.equal([recruiterRole]);
    // Nor take over a stronger account: a new password (or any edit) or a delete of a Super Admin is refused.
    expect((await app.put('/admin/users/1', { password: 'Takeover123' }, { token: recruiterToken })).status).to.equal(403);
    expect((await app.request('DELETE', '/admin/users/1', { token: recruiterToken })).status).to.equal(403);
    expect((await app.post('/admin/login', { email: OWNER.email, password: OWNER.password })).status).to.equal(200);
    expect((await app.put(`/admin/users/${recruiter.id}`, { firstname: 'Recruiter' }, { token: recruiterToken })).status).to.equal(200);
    // A Super Admin gives any role.
    expect((await app.put(`/admin/users/${recruiter.id}`, { roles: [rolesRole] }, { token })).status).to.equal(200);
  });

  it('lists the new routes in `tessera routes` with who may call them', async () => {
    const rows = routeTable(app.app).filter((row) => row.path.startsWith('/admin/'));
    const summary = summarize(rows, await app.app.permissions.publicAbility());
    const authOf = (method: string, path: string) => summary.find((row) => row.method === method && row.path === path)?.auth;
    const admin = [['GET', '/admin/users'], ['POST', '/admin/users'], ['GET', '/admin/users/:id'], ['PUT', '/admin/users/:id'], ['DELETE', '/admin/users/:id'], ['POST', '/admin/users/batch-delete']];
    const open = [['GET', '/admin/registration-info'], ['POST', '/admin/register'], ['POST', '/admin/forgot-password'], ['POST', '/admin/reset-password']];
    expect(admin.map(([method, path]) => authOf(method, path))).to.deep.equal(admin.map(() => 'admin'));
    expect(open.map(([method, path]) => authOf(method, path))).to.deep.equal(open.map(() => 'none'));
    // Declared as Strapi's route file declares them: its two delete routes name hasPermissions alone.
    const policiesOf = (method: string, path: string) => rows.find((row) => row.method === method && row.path === path)!.policies;
    expect(policiesOf('GET', '/admin/users')).to.deep.equal(['admin::isAuthenticatedAdmin', 'admin::hasPermissions']);
    expect([policiesOf('DELETE', '/admin/users/:id'), policiesOf('POST', '/admin/users/batch-delete')]).to.deep.equal([['admin::hasPermissions'], ['admin::hasPermissions']]);
  });

  it('keeps admin and content-API credentials apart on the users routes', async () => {
    const apiToken = await app.fullAccessToken();
    for (const [method, path] of [['GET', '/admin/users'], ['GET', '/admin/users/1'], ['DELETE', '/admin/users/2'], ['POST', '/admin/users/batch-delete']]) {
      const answer = await app.request(method, path, { token: apiToken, body: method === 'GET' ? undefined : { ids: [2] } });
      expect([answer.status, answer.body.error.message], `${method} ${path}`).to.deep.equal([401, 'Missing or invalid credentials']);
    }
    expect((await app.get('/api/notes', { token })).status).to.equal(401);
  });
});

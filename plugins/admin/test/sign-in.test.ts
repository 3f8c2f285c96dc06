/**
 * Admin sign-in as Strapi 4.26.2 answers it (recorded.ts), on a fresh database
 * of each kind: the default roles, the first admin (and only one when two
 * race), login with its rate limit, token renewal, the profile, one's own
 * permissions; the two kinds of credential kept apart; the routes listed.
 */
import { expect } from 'chai';
import { routeTable, summarize } from '@tessera/core';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { DEFAULT_ROLES, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { ADMIN_APP_FILES } from './fixture';
import { RECORDED, RECORDED_PROFILE } from './recorded';

const FIRST = { email: 'owner@example.com', password: 'Secret123', firstname: 'First', lastname: 'Admin' };

eachDatabase('admin sign-in (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, files: ADMIN_APP_FILES, config: { admin: { auth: { secret: 'admin-test-secret' } } } });
  });
  after(() => app?.stop());

  it('seeds Strapi three default roles on a fresh database, and reports no admin yet', async () => {
    const roles = await app.app.db.query(ROLE_UID).findMany({ select: ['name', 'code', 'description'], orderBy: [{ id: 'asc' }] });
    expect(roles.map(({ name, code, description }) => ({ name, code, description }))).to.deep.equal(DEFAULT_ROLES);
    const init = await app.get('/admin/init');
    expect(init.status).to.equal(200);
    expect(init.body).to.deep.equal({ data: { uuid: false, hasAdmin: false, menuLogo: null, authLogo: null } });
  });

  for (const recorded of RECORDED) {
    it(`${recorded.method} ${recorded.path}: ${recorded.title}`, async () => {
      const response = await app.request(recorded.method, recorded.path, { body: recorded.body });
      expect(response.status).to.equal(recorded.status);
      expect(response.body).to.deep.equal(recorded.answer);
    });
  }

  it('registers exactly one first admin when two registrations race, as Super Admin', async () => {
    const second = { ...FIRST, email: 'second.admin@example.com' };
    const answers = await Promise.all([app.post('/admin/register-admin', FIRST), app.post('/admin/register-admin', second)]);
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 400]);
    const refused = answers.find((answer) => answer.status === 400)!;
    expect(refused.body).to.deep.equal(RECORDED_PROFILE.secondRegistration);
    expect(await app.app.db.query(USER_UID).count({})).to.equal(1);
    const winner = answers.find((answer) => answer.status === 200)!;
    const { user } = winner.body.data;
    expect(Object.keys(user)).to.deep.equal(['id', 'firstname', 'lastname', 'username', 'email', 'isActive', 'blocked', 'preferedLanguage', 'createdAt', 'updatedAt', 'roles']);
    expect(user).to.deep.include({ firstname: 'First', lastname: 'Admin', username: null, isActive: true, blocked: false, preferedLanguage: null });
    expect(user.roles).to.deep.equal([{ id: 1, name: 'Super Admin', description: DEFAULT_ROLES[0].description, code: 'strapi-super-admin' }]);
    // FIRST may have lost the race: make FIRST the admin for the tests below whichever won.
    if (user.email !== FIRST.email) await app.app.db.query(USER_UID).update({ where: { id: user.id }, data: { email: FIRST.email } });
    expect((await app.post('/admin/register-admin', { ...FIRST, email: 'third@example.com' })).body).to.deep.equal(RECORDED_PROFILE.secondRegistration);
    expect((await app.get('/admin/init')).body.data.hasAdmin).to.equal(true);
  });

  it('logs in with the password (bcrypt), refuses a wrong one, and answers the token with the user', async () => {
    const wrong = await app.post('/admin/login', { email: FIRST.email, password: 'Wrong1234' });
    expect([wrong.status, wrong.body]).to.deep.equal([400, RECORDED_PROFILE.wrongPassword]);
    const unknown = await app.post('/admin/login', { email: 'nobody@example.com', password: 'Wrong1234' });
    expect([unknown.status, unknown.body]).to.deep.equal([400, RECORDED_PROFILE.wrongPassword]);
    const login = await app.post('/admin/login', { email: FIRST.email, password: FIRST.password });
    expect(login.status).to.equal(200);
    expect(Object.keys(login.body.data.user)).to.deep.equal(['id', 'firstname', 'lastname', 'username', 'email', 'isActive', 'blocked', 'preferedLanguage', 'createdAt', 'updatedAt']);
    token = login.body.data.token;
    const me = await app.get('/admin/users/me', { token });
    expect(me.status).to.equal(200);
    expect(me.body.data).to.deep.include({ email: FIRST.email, firstname: 'First' });
    expect(me.body.data.roles.map((role: { code: string }) => role.code)).to.deep.equal(['strapi-super-admin']);
  });

  it('refuses a blocked-out (inactive) admin at login and its token everywhere', async () => {
    const id = (await app.app.db.query(USER_UID).findOne({ where: { email: FIRST.email }, select: ['id'] }))!.id;
    await app.app.db.query(USER_UID).update({ where: { id }, data: { isActive: false } });
    try {
      const login = await app.post('/admin/login', { email: FIRST.email, password: FIRST.password });
      expect([login.status, login.body.error.message]).to.deep.equal([400, 'User not active']);
      expect((await app.get('/admin/users/me', { token })).status).to.equal(401);
    } finally {
      await app.app.db.query(USER_UID).update({ where: { id }, data: { isActive: true } });
    }
  });

  it('renews a token and keeps the two kinds of credential apart', async () => {
    const renewed = await app.post('/admin/renew-token', { token });
    expect(renewed.status).to.equal(200);
    expect(Object.keys(renewed.body.data)).to.deep.equal(['token']);
    expect((await app.get('/admin/users/me', { token: renewed.body.data.token })).status).to.equal(200);
    expect((await app.post('/admin/renew-token', { token, x: 1 })).body).to.deep.equal(RECORDED_PROFILE.renewUnknownKey);
    // An admin token is no content-API credential, and a content-API token is no admin's.
    expect((await app.get('/api/notes', { token })).status).to.equal(401);
    const apiToken = await app.fullAccessToken();
    expect((await app.get('/api/notes', { token: apiToken })).status).to.equal(200);
    const refused = await app.get('/admin/users/me', { token: apiToken });
    expect([refused.status, refused.body.error.message]).to.deep.equal([401, 'Missing or invalid credentials']);
  });

  it('edits the profile as Strapi does: normalised email and first name, a new password only with the current one', async () => {
    const put = (body: unknown) => app.put('/admin/users/me', body, { token });
    expect((await put({ password: 'NewPass123' })).body).to.deep.equal(RECORDED_PROFILE.passwordWithoutCurrent);
    expect((await put({ password: 'NewPass123', currentPassword: 'Wrong1234' })).body).to.deep.equal(RECORDED_PROFILE.wrongCurrentPassword);
    expect((await put({ firstname: '  Renamed ', preferedLanguage: 'fr', extra: 2 })).body).to.deep.equal(RECORDED_PROFILE.unknownKey);
    expect((await put({ firstname: null })).body).to.deep.equal(RECORDED_PROFILE.nullFirstname);
    expect((await app.request('PUT', '/admin/users/me', { rawBody: '[1]', token })).body).to.deep.equal(RECORDED_PROFILE.arrayBody);
    const renamed = await put({ firstname: '  Renamed ', email: 'OWNER@example.com', preferedLanguage: 'fr' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.deep.include({ firstname: 'Renamed', email: FIRST.email, preferedLanguage: 'fr' });
    const changed = await put({ password: 'NewPass123', currentPassword: FIRST.password });
    expect(changed.status).to.equal(200);
    expect((await app.post('/admin/login', { email: FIRST.email, password: FIRST.password })).status).to.equal(400);
    expect((await app.post('/admin/login', { email: FIRST.email, password: 'NewPass123' })).status).to.equal(200);
  });

  it('answers the signed-in admin permissions from the store, project info, and logs out', async () => {
    // The Super Admin holds every registered action (synced at boot, as Strapi's resetSuperAdminPermissions).
    const own: Array<{ id: number; action: string; subject: string | null }> = (await app.get('/admin/users/me/permissions', { token })).body.data;
    // (Publish has no subject here: this app has no draft-and-publish type.)
    const granted = app.app.admin.services.permission.actionProvider.values().filter((action) => action.subjects === undefined || action.subjects.length > 0);
    expect([...new Set(own.map((permission) => permission.action))].sort()).to.deep.equal(granted.map((action) => action.actionId).sort());
    const read = own.find((permission) => permission.action === 'plugin::content-manager.explorer.read');
    expect(read).to.deep.include({ subject: 'api::note.note', actionParameters: {}, properties: { fields: ['title'] }, conditions: [] });
    expect((await app.get('/admin/project-settings', { token })).body).to.deep.equal({ menuLogo: null, authLogo: null });
    const information = await app.get('/admin/information', { token });
    expect(information.body.data).to.deep.include({ strapiVersion: '4.26.2', communityEdition: true, useYarn: false, nodeVersion: process.version });
    expect(information.body.data.dependencies).to.deep.equal({ '@strapi/admin': '4.26.2' });
    expect((await app.get('/admin/telemetry-properties', { token })).status).to.equal(204);
    // Strapi's plugin list without Tessera's own `rest` and `admin`: this app runs only the content-type builder, on
    // in every app as on Strapi (a core plugin), and the content manager, on with the admin; with Strapi's display
    // names and descriptions.
    expect((await app.get('/admin/plugins', { token })).body).to.deep.equal({
      plugins: [
        {
          name: 'content-type-builder',
          displayName: 'Content Type Builder',
          description: 'Modelize the data structure of your API. Create new fields and relations in just a minute. The files are automatically created and updated in your project.',
        },
        { name: 'content-manager', displayName: 'Content Manager', description: 'Quick way to see, edit and delete the data in your database.' },
      ],
    });
    const logout = await app.post('/admin/logout', undefined, { token });
    expect([logout.status, logout.body]).to.deep.equal([200, RECORDED_PROFILE.logout]);
  });

  it('answers any body on every admin write route with a 4xx in the error envelope, never a 500', async () => {
    const bodies = ['"text"', '42', 'null', '[]', '{"email":[],"password":{"$ne":1}}', '{"token":123}', '{"firstname":{"a":1},"email":7}', `{"email":"${'a'.repeat(5000)}@x.io","password":"${'B1b'.repeat(3000)}"}`, '{broken'];
    const routes: Array<[string, string]> = [['POST', '/admin/register-admin'], ['POST', '/admin/renew-token'], ['PUT', '/admin/users/me']];
    for (const [method, path] of routes) {
      for (const rawBody of bodies) {
        const answer = await app.request(method, path, { rawBody, token });
        expect(answer.status, `${method} ${path} ${rawBody.slice(0, 40)}`).to.be.within(400, 499);
        expect(answer.body.error, `${method} ${path} ${rawBody.slice(0, 40)}`).to.include.keys('status', 'name', 'message');
      }
    }
    // Login last: each counts against its email's rate limit.
    for (const rawBody of bodies.slice(0, 5)) expect((await app.request('POST', '/admin/login', { rawBody })).status).to.be.within(400, 499);
  });

  it('limits logins to 5 per 5 minutes per email, path and address (any case of the email)', async () => {
    const attempt = (email: string) => app.post('/admin/login', { email, password: 'Wrong1234' });
    for (let i = 0; i < 5; i += 1) expect((await attempt('rate.limit@example.com')).status).to.equal(400);
    const limited = await attempt('RATE.limit@example.com');
    expect([limited.status, limited.body]).to.deep.equal([429, RECORDED_PROFILE.rateLimited]);
    expect(limited.headers.get('x-ratelimit-limit')).to.equal('5');
    expect((await attempt('another@example.com')).status).to.equal(400);
  });

  it('answers unknown admin routes 404 (405 for a method the panel path lacks, as Strapi) and lists the admin routes', async () => {
    // No build here: the panel's paths are not found. With the panel served, GET falls back to index.html (panel-serve.test.ts).
    expect((await app.get('/admin/nope')).status).to.equal(404);
    expect((await app.post('/admin/nope', {})).status).to.equal(405);
    const rows = routeTable(app.app).filter((row) => row.path.startsWith('/admin/'));
    expect(rows.map((row) => `${row.method} ${row.path}`)).to.include.members(['POST /admin/login', 'POST /admin/register-admin', 'GET /admin/users/me', 'PUT /admin/users/me']);
    expect(rows.find((row) => row.path === '/admin/users/me')!.policies).to.deep.equal(['admin::isAuthenticatedAdmin']);
    expect(rows.find((row) => row.path === '/admin/plugins')!.policies).to.deep.equal(['admin::isAuthenticatedAdmin', 'admin::hasPermissions']);
    // `tessera routes` shows who may call each: a signed-in admin, or anyone for the sign-in routes themselves.
    const summary = summarize(rows, await app.app.permissions.publicAbility());
    const authOf = (method: string, path: string) => summary.find((row) => row.method === method && row.path === path)?.auth;
    expect([authOf('GET', '/admin/users/me'), authOf('POST', '/admin/login'), authOf('GET', '/admin/init')]).to.deep.equal(['admin', 'none', 'none']);
  });
});

describe('admin secret [sqlite]', () => {
  it('refuses to boot with the admin secret equal to JWT_SECRET (an admin token would pass as a user)', async () => {
    const saved = process.env.JWT_SECRET;
    process.env.JWT_SECRET = 'one-secret-for-both';
    try {
      const error = await bootError({ dialect: 'sqlite', files: ADMIN_APP_FILES, config: { admin: { auth: { secret: 'one-secret-for-both' } } } });
      expect(error.message).to.match(/must differ from JWT_SECRET/);
    } finally {
      if (saved === undefined) delete process.env.JWT_SECRET;
      else process.env.JWT_SECRET = saved;
    }
  });
});

describe('admin sign-in off: an app without @strapi/admin', () => {
  it('runs API-only: no admin routes, no admin tables', async () => {
    const app = await startApp({ dialect: 'sqlite', files: { 'package.json': { name: 'api-only', version: '0.1.0', dependencies: {} } } });
    try {
      expect((await app.get('/admin/init')).status).to.equal(404);
      expect(app.app.contentTypes.has(USER_UID)).to.equal(false);
    } finally {
      await app.stop();
    }
  });
});

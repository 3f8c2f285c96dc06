/**
 * A plugin's admin side on the server, as published plugins write it: its `type: 'admin'` routes at `/<plugin>/…`
 * behind the admin session and its declared policies (`admin::hasPermissions` with an action it registers through
 * `strapi.admin.services.permission.actionProvider.registerMany`), and its code calling
 * `strapi.admin.services.user`, `.role` and `.token` — answered from the admin tables. Refusals and admissions are
 * compared with Strapi 4.26.2's plugins' admin routes under the same policies (recorded on the peer). A method Tessera does not
 * serve, and every method in an app without the admin panel, throws an error naming it.
 */
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { ADMIN_APP_FILES } from './fixture';
import recordedRoutes from './recorded/strapi-4.26.2-plugin-admin-routes.json';

/** A local plugin written as a Strapi v4 plugin is (CommonJS, `({ strapi })` factories, Strapi's policy names). */
const PLUGIN_SERVER = `'use strict';
module.exports = {
  async bootstrap({ strapi }) {
    await strapi.admin.services.permission.actionProvider.registerMany([
      { section: 'plugins', displayName: 'Read', uid: 'read', pluginName: 'team-tools' },
    ]);
  },
  controllers: {
    team: ({ strapi }) => ({
      async whoami(ctx) {
        const { user, role, token } = strapi.admin.services;
        const me = await user.findOne(ctx.state.user.id);
        const superAdmin = await role.getSuperAdminWithUsersCount();
        const header = ctx.request.header.authorization.slice('Bearer '.length);
        ctx.body = {
          me: user.sanitizeUser(me),
          roles: me.roles.map((r) => r.code),
          superAdmins: superAdmin.usersCount,
          lastSuperAdmin: await user.isLastSuperAdminUser(ctx.state.user.id),
          activeUsers: await user.getCurrentActiveUserCount(),
          session: token.decodeJwtToken(header),
          forged: token.decodeJwtToken(header + 'x'),
          sameService: strapi.service('admin::user') === user,
        };
      },
    }),
  },
  routes: {
    admin: {
      type: 'admin',
      routes: [
        { method: 'GET', path: '/whoami', handler: 'team.whoami', config: { policies: [{ name: 'admin::hasPermissions', config: { actions: ['plugin::team-tools.read'] } }] } },
        { method: 'GET', path: '/ping', handler: 'team.whoami', config: { policies: ['admin::isAuthenticatedAdmin'] } },
      ],
    },
  },
};
`;

const FILES = {
  ...ADMIN_APP_FILES,
  'src/plugins/team-tools/strapi-server.js': PLUGIN_SERVER,
  'src/plugins/team-tools/package.json': { name: 'team-tools', strapi: { kind: 'plugin', name: 'team-tools' } },
  'config/plugins.js': `module.exports = { 'team-tools': { enabled: true, resolve: './src/plugins/team-tools' } };`,
};

eachDatabase("a plugin's admin routes and strapi.admin.services", (dialect) => {
  let app: TestApp;
  let superToken = '';
  let authorToken = '';

  before(async () => {
    app = await startApp({ dialect, files: FILES, config: { admin: { auth: { secret: 'plugin-admin-services-secret' } } } });
    superToken = (await app.post('/admin/register-admin', { email: 'super@example.com', firstname: 'Super', lastname: 'Admin', password: 'Super1234' })).body.data.token;
    const author = (await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
    const password = await bcrypt.hash('Author1234', 10);
    await app.app.db.query(USER_UID).create({ data: { email: 'author@example.com', firstname: 'Au', lastname: 'Thor', password, isActive: true, blocked: false, roles: [author] } });
    authorToken = (await app.post('/admin/login', { email: 'author@example.com', password: 'Author1234' })).body.data.token;
  });
  after(() => app?.stop());

  it("answers its admin route to the Super Admin, with what the admin services say", async () => {
    const response = await app.get('/team-tools/whoami', { token: superToken });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const { me, ...rest } = response.body;
    expect(rest).to.deep.equal({
      roles: ['strapi-super-admin'],
      superAdmins: 1,
      lastSuperAdmin: true,
      activeUsers: 2,
      session: { payload: { id: me.id }, isValid: true },
      forged: { payload: null, isValid: false },
      sameService: true,
    });
    expect(me).to.include({ email: 'super@example.com', firstname: 'Super', isActive: true });
    expect(me).to.not.have.any.keys('password', 'resetPasswordToken', 'registrationToken');
    expect(me.roles).to.deep.equal([{ id: me.roles[0].id, name: 'Super Admin', description: 'Super Admins can access and manage all features and settings.', code: 'strapi-super-admin' }]);
  });

  it("refuses and lets in by its declared policies as Strapi 4.26.2's plugins' admin routes do (recorded/strapi-4.26.2-plugin-admin-routes.json)", async () => {
    // The same policies on this plugin's routes: hasPermissions on /whoami, isAuthenticatedAdmin alone on /ping.
    const route = { hasPermissions: '/team-tools/whoami', isAuthenticatedAdmin: '/team-tools/ping' } as const;
    for (const step of recordedRoutes.steps) {
      const token = step.as === 'author' ? authorToken : undefined;
      const response = await app.get(route[step.policy as keyof typeof route], { token });
      const answer = step.status >= 400 ? [response.status, response.body] : [response.status];
      expect(answer, step.title).to.deep.equal(step.status >= 400 ? [step.status, step.body] : [step.status]);
    }
  });

  it('shows the registered action in the role editor, and opens the route once the Author role is given it', async () => {
    const editor = await app.get('/admin/permissions', { token: superToken });
    const plugins = editor.body.data.sections.plugins as Array<{ action: string; plugin: string }>;
    expect(plugins.filter((action) => action.plugin === 'team-tools')).to.deep.equal([{ displayName: 'Read', action: 'plugin::team-tools.read', subCategory: 'general', plugin: 'team-tools' }]);
    const author = (await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
    await app.app.db.query('admin::permission').create({ data: { action: 'plugin::team-tools.read', actionParameters: {}, subject: null, properties: {}, conditions: [], role: author } });
    const response = await app.get('/team-tools/whoami', { token: authorToken });
    expect([response.status, response.body.roles, response.body.lastSuperAdmin]).to.deep.equal([200, ['strapi-author'], false]);
  });

  it("answers the role and user services' reads, and names a method it does not serve", async () => {
    const { user, role } = app.app.admin.services;
    expect(await user.exists({ email: 'author@example.com' })).to.equal(true);
    expect(await user.exists({ email: 'nobody@example.com' })).to.equal(false);
    expect((await user.findOneByEmail('author@example.com'))?.firstname).to.equal('Au');
    expect(await user.findOne('not-an-id')).to.equal(null);
    expect((await role.findAllWithUsersCount()).map((row) => [row.code, row.usersCount])).to.deep.equal([['strapi-super-admin', 1], ['strapi-editor', 0], ['strapi-author', 1]]);
    expect(await role.exists({ code: 'strapi-editor' })).to.equal(true);
    const superAdmin = (await role.getSuperAdmin())!;
    let refusal: Error | undefined;
    await role.checkRolesIdForDeletion([superAdmin.id]).catch((error: Error) => (refusal = error));
    expect(refusal?.message).to.equal('You cannot delete the super admin role');
    const create = Reflect.get(user, 'create') as () => unknown;
    expect(() => create()).to.throw('strapi.admin.services.user.create() is not served by Tessera');
  });
});

describe('strapi.admin.services without the admin panel [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: { 'package.json': { name: 'api-only', version: '0.1.0', dependencies: {} } } });
  });
  after(() => app?.stop());

  it('throws naming the method and what it needs', async () => {
    const { user, token } = app.app.admin.services;
    expect(() => user.findOne(1)).to.throw('strapi.admin.services.user.findOne() needs the admin panel: add @strapi/admin to the app');
    expect(() => token.createJwtToken({ id: 1 })).to.throw('strapi.admin.services.token.createJwtToken() needs the admin panel');
    expect(app.app.service('admin::user')).to.equal(undefined);
  });
});

/**
 * users-permissions' services as Strapi 4.26.2's app code calls them (`strapi.plugin('users-permissions').service(x)`):
 * `user.count(where)`, `user.fetchAll(params)`, `permission.*`, `providers.buildRedirectUri`, the providers registry,
 * `users-permissions.template`/`updateUserRole`, `jwt.issue(payload, jwtOptions)`. STRAPI is what the same calls
 * answered on Strapi 4.26.2 (a loaded app, the same two users and role grants, NODE_ENV=production).
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import type {} from '@tessera/plugin-users-permissions';
import { NOTE_SCHEMA } from './fixture';

const STRAPI = {
  strapi: '4.26.2',
  countAll: 2,
  countConfirmed: 1,
  fetchAll: [
    { username: 'svc-a', confirmed: true },
    { username: 'svc-b', confirmed: false },
  ],
  toContentAPIPermission: { action: 'api::note.note.find' },
  findPublicPermissionsIsArray: true,
  findRolePermissions: ['api::note.note.create', 'api::note.note.find'],
  /** Strapi's answer with server.host 0.0.0.0 and port 1337: `http://0.0.0.0:1337/api/connect/github/callback`. */
  buildRedirectUriPath: '/api/connect/github/callback',
  registryGithubKeys: ['authCallback', 'enabled', 'grantConfig', 'icon'],
  registryHasEmail: true,
  template: 'Hi svc-a',
  updatedRole: 'public',
  jwtIssueWithOptions: ['exp', 'iat', 'id'],
};

eachDatabase("users-permissions services with Strapi 4.26.2's methods", (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: { 'src/api/note/content-types/note/schema.json': NOTE_SCHEMA },
      config: { plugins: { 'users-permissions': { enabled: true } } },
    });
  });
  after(() => app.stop());

  it('answers as Strapi 4.26.2 did', async () => {
    const up = app.app.plugin('users-permissions')!;
    const role = (await app.app.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } }))!;
    for (const action of ['api::note.note.find', 'api::note.note.create']) await app.app.db.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
    const a = await up.service('user').add({ username: 'svc-a', email: 'svc-a@example.com', password: 'Secret123', provider: 'local', confirmed: true, role: role.id });
    await up.service('user').add({ username: 'svc-b', email: 'svc-b@example.com', password: 'Secret123', provider: 'local', confirmed: false, role: role.id });
    const publicRole = (await app.app.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } }))!;
    await up.service('users-permissions').updateUserRole(a, publicRole.id);
    const token = up.service('jwt').issue({ id: a.id }, { expiresIn: '1h' });
    const answers = {
      strapi: STRAPI.strapi,
      countAll: await up.service('user').count(),
      countConfirmed: await up.service('user').count({ confirmed: true }),
      fetchAll: (await up.service('user').fetchAll({ filters: { username: { $startsWith: 'svc-' } }, fields: ['username', 'confirmed'], sort: 'username' })).map(({ username, confirmed }) => ({ username, confirmed })),
      toContentAPIPermission: up.service('permission').toContentAPIPermission({ id: 3, action: 'api::note.note.find', role: 1 } as { action: string }),
      findPublicPermissionsIsArray: Array.isArray(await up.service('permission').findPublicPermissions()),
      findRolePermissions: (await up.service('permission').findRolePermissions(role.id)).map((permission) => String(permission.action)).filter((action) => action.startsWith('api::note')).sort(),
      buildRedirectUriPath: new URL(up.service('providers').buildRedirectUri('github')).pathname,
      registryGithubKeys: Object.keys(up.service('providers-registry').get('github')!).sort(),
      registryHasEmail: 'email' in up.service('providers-registry').getAll(),
      template: up.service('users-permissions').template('Hi <%= USER.username %>', { USER: { username: 'svc-a' } }),
      updatedRole: ((await app.app.db.query('plugin::users-permissions.user').findOne({ where: { id: a.id }, populate: ['role'] }))!.role as { type: string }).type,
      jwtIssueWithOptions: Object.keys(await up.service('jwt').verify(token)).sort(),
    };
    expect(answers).to.deep.equal(STRAPI);
  });

  it("providers.connect without an access token: Strapi's `No access_token.` (the sign-in itself: providers.test.ts)", async () => {
    const up = app.app.plugin('users-permissions')!;
    let refusal: Error | undefined;
    await up.service('providers').connect('github', {}).catch((error: Error) => (refusal = error));
    expect(refusal?.message).to.equal('No access_token.');
  });
});

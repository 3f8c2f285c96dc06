/**
 * Admin routes through the kernel's gate, as Strapi 4.26.2 runs them: routers
 * of type `admin` (the admin plugin's and a published-style plugin's) are
 * authenticated by the admin strategy only, `admin::isAuthenticatedAdmin` and
 * `admin::hasPermissions` decide, and the ability on `ctx.state.userAbility`
 * (contract.ts) answers `can` and, per action and subject, the entries
 * (conditions compiled to filters), fields and locales its permissions allow.
 * Refusals as recorded on Strapi (recorded/strapi-4.26.2-admin-gate.json).
 */
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { ADMIN_APP_FILES } from './fixture';
import recorded from './recorded/strapi-4.26.2-admin-gate.json';

const READ = 'plugin::content-manager.explorer.read';
const NOTE = 'api::note.note';

/** A published-style plugin (plain strapi-server.js) with admin routes that read `ctx.state` as Strapi plugins do. */
const REPORTS_SERVER = `module.exports = () => ({
  controllers: {
    report: ({ strapi }) => ({
      async notes(ctx) {
        const access = ctx.state.userAbility.access('${READ}', '${NOTE}');
        const rows = await strapi.db.query('${NOTE}').findMany({ where: access.filters || {}, select: ['title'], orderBy: { title: 'asc' } });
        ctx.body = { access, titles: rows.map((row) => row.title) };
      },
      whoami(ctx) {
        const { user, isAuthenticated, auth, userAbility } = ctx.state;
        ctx.body = {
          id: user.id,
          isAuthenticated,
          strategy: auth.strategy.name,
          sameUser: auth.credentials === user,
          canReadUsers: userAbility.can('admin::users.read'),
          canReadNotes: userAbility.can('${READ}', '${NOTE}'),
          canReadTitle: userAbility.can('${READ}', '${NOTE}', 'title'),
          canReadBody: userAbility.can('${READ}', '${NOTE}', 'body'),
          canUnregistered: userAbility.can('plugin::nothing.read'),
        };
      },
    }),
  },
  routes: {
    admin: {
      type: 'admin',
      routes: [
        { method: 'GET', path: '/notes', handler: 'report.notes', config: { policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions: [['${READ}', '${NOTE}']] } }] } },
        { method: 'GET', path: '/whoami', handler: 'report.whoami', config: { policies: ['admin::isAuthenticatedAdmin'] } },
      ],
    },
  },
});
`;

const FILES = {
  ...ADMIN_APP_FILES,
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { title: { type: 'string' }, body: { type: 'text' } },
  },
  'src/plugins/reports/strapi-server.js': REPORTS_SERVER,
  'config/plugins.ts': `export default ${JSON.stringify({ reports: { enabled: true, resolve: './src/plugins/reports' } })};\n`,
};

const PASSWORD = 'Secret123';

eachDatabase('admin routes through the gate (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  async function addAdmin(name: string, roles: number[]): Promise<void> {
    const password = await bcrypt.hash(PASSWORD, 10);
    const user = await app.app.db.query(USER_UID).create({ data: { email: `${name}@example.com`, firstname: name, password, isActive: true, blocked: false, roles } });
    ids[name] = user.id;
    const login = await app.post('/admin/login', { email: `${name}@example.com`, password: PASSWORD });
    expect(login.status).to.equal(200);
    tokens[name] = login.body.data.token;
  }

  async function grant(role: number, action: string, subject: string | null, properties: object, conditions: string[]): Promise<void> {
    await app.app.db.query(PERMISSION_UID).create({ data: { action, actionParameters: {}, subject, properties, conditions, role } });
  }

  before(async () => {
    app = await startApp({ dialect, files: FILES, config: { admin: { auth: { secret: 'admin-gate-secret' } } } });
    const registered = await app.post('/admin/register-admin', { email: 'super@example.com', firstname: 'Super', password: PASSWORD });
    tokens.super = registered.body.data.token;
    ids.super = registered.body.data.user.id;
    // Roles of their own (the default Author's permissions are permissions/defaults' tests): "reviewer" shares
    // Writer with "author", for the same-role condition.
    const author = (await app.app.db.query(ROLE_UID).create({ data: { name: 'Writer', code: 'writer', description: '' } })).id;
    const plain = (await app.app.db.query(ROLE_UID).create({ data: { name: 'Plain', code: 'plain', description: '' } })).id;
    await addAdmin('author', [author]);
    await addAdmin('reviewer', [author, plain]);
    await addAdmin('outsider', [plain]);
    await addAdmin('nobody', []);
    await grant(author, READ, NOTE, { fields: ['title'] }, ['admin::is-creator']);
    await grant(plain, READ, NOTE, {}, ['admin::has-same-role-as-creator']);
    for (const [title, by] of [['a by author', 'author'], ['b by reviewer', 'reviewer'], ['c by super', 'super'], ['d by outsider', 'outsider']] as const) {
      await app.app.db.query(NOTE).create({ data: { title, body: 'secret', createdBy: ids[by] } });
    }
  });
  after(() => app?.stop());

  for (const answer of recorded.answers.filter((entry) => !entry.path.startsWith('/admin/roles'))) {
    it(`${answer.method} ${answer.path}: ${answer.title}`, async () => {
      const headers: Record<string, string> =
        answer.as === 'anonymous' ? {} : answer.as === 'garbage' ? { authorization: 'Bearer not-a-token' } : answer.as === 'basic' ? { authorization: `Basic ${tokens.author}` } : { authorization: `Bearer ${tokens[answer.as]}` };
      const response = await app.request(answer.method, answer.path, { headers });
      expect([response.status, response.body]).to.deep.equal([answer.status, answer.body]);
    });
  }

  it('lets a Super Admin through every admin route, with the ability of every registered action (and no other)', async () => {
    expect((await app.get('/admin/plugins', { token: tokens.super })).status).to.equal(200);
    expect((await app.get('/admin/project-settings', { token: tokens.super })).status).to.equal(200);
    const me = await app.get('/reports/whoami', { token: tokens.super });
    expect(me.body).to.deep.equal({ id: ids.super, isAuthenticated: true, strategy: 'admin', sameUser: true, canReadUsers: true, canReadNotes: true, canReadTitle: true, canReadBody: true, canUnregistered: false });
    const notes = await app.get('/reports/notes', { token: tokens.super });
    expect(notes.body).to.deep.equal({ access: { fields: 'all', locales: 'all' }, titles: ['a by author', 'b by reviewer', 'c by super', 'd by outsider'] });
  });

  it("restricts an Author to the entries it created (admin::is-creator) and to its permission's fields", async () => {
    const me = await app.get('/reports/whoami', { token: tokens.author });
    expect(me.body).to.deep.equal({ id: ids.author, isAuthenticated: true, strategy: 'admin', sameUser: true, canReadUsers: false, canReadNotes: true, canReadTitle: true, canReadBody: false, canUnregistered: false });
    const notes = await app.get('/reports/notes', { token: tokens.author });
    expect(notes.body).to.deep.equal({ access: { filters: { createdBy: { $eq: ids.author } }, fields: ['title'], locales: 'all' }, titles: ['a by author'] });
  });

  it('ORs permissions of several roles: is-creator, or a creator sharing one of its roles (admin::has-same-role-as-creator)', async () => {
    const notes = await app.get('/reports/notes', { token: tokens.reviewer });
    expect(notes.status).to.equal(200);
    // Plain's permission: creators sharing Writer or Plain with the reviewer (author, reviewer, outsider); fields all.
    expect(notes.body.access.fields).to.equal('all');
    expect(notes.body.titles).to.deep.equal(['a by author', 'b by reviewer', 'd by outsider']);
    const outsider = await app.get('/reports/notes', { token: tokens.outsider });
    expect(outsider.body.titles).to.deep.equal(['b by reviewer', 'd by outsider']);
  });

  it('refuses a signed-in admin without the action (403), and keeps content-API credentials off admin routes and admin tokens off the content API', async () => {
    const refused = await app.get('/reports/notes', { token: tokens.nobody });
    expect([refused.status, refused.body.error.message]).to.deep.equal([403, 'Forbidden']);
    const apiToken = await app.get('/reports/whoami', { token: await app.fullAccessToken() });
    expect([apiToken.status, apiToken.body.error.message]).to.deep.equal([401, 'Missing or invalid credentials']);
    expect((await app.get('/api/notes', { token: tokens.super })).status).to.equal(401);
  });

  it('refuses a deactivated admin at once (its ability is built per request)', async () => {
    await app.app.db.query(USER_UID).update({ where: { id: ids.outsider }, data: { isActive: false } });
    const refused = await app.get('/reports/whoami', { token: tokens.outsider });
    expect([refused.status, refused.body.error.message]).to.deep.equal([401, 'Missing or invalid credentials']);
  });
});

describe('admin::hasPermissions config [sqlite]', () => {
  it('stops the boot on a route whose actions are not a list of actions, naming the route', async () => {
    const files = { ...FILES, 'src/plugins/reports/strapi-server.js': REPORTS_SERVER.replace(`actions: [['${READ}', '${NOTE}']]`, 'actions: [42]') };
    const error = await bootError({ dialect: 'sqlite', files, config: { admin: { auth: { secret: 'admin-gate-secret' } } } });
    expect(error.message).to.equal('route GET /reports/notes: admin::hasPermissions: each of config.actions is an action, [action, subject] or { action, subject }');
  });
});

/**
 * `/users`: the bare list with filters/sort/pagination, count, one user with
 * its role, create (201), update (sample 91), delete; mass assignment through
 * a route opened to users by another scope; and private fields, which no
 * response shows and no filter, sort, field list or populate can reach —
 * directly or through a relation to users.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { FORBIDDEN, USER_KEYS, errorBody, register, startUpApp } from './fixture';

const OWN_PROFILE_EXTENSION = `
// A common Strapi v4 customisation: users may update their own profile (scope user.me + an is-owner policy).
export default (plugin) => {
  const router = plugin.routes['content-api'];
  const isOwner = (policyContext) => String(policyContext.ctx.params.id) === String(policyContext.auth.credentials && policyContext.auth.credentials.id);
  const routes = router.routes.map((route) =>
    route.handler === 'user.update' ? { ...route, config: { ...route.config, auth: { scope: ['plugin::users-permissions.user.me'] }, policies: [isOwner] } } : route,
  );
  return { ...plugin, routes: { ...plugin.routes, 'content-api': { ...router, routes } } };
};
`;

eachDatabase('users-permissions: /users', (dialect) => {
  let app: TestApp;
  let full: string;
  const ids: Record<string, number> = {};
  before(async () => {
    app = await startUpApp(dialect);
    full = await app.fullAccessToken();
    for (const name of ['bob', 'amy', 'cid']) ids[name] = (await register(app, name)).id;
  });
  after(() => app?.stop());

  it('GET /users is a bare array (sample 81) with filters, sort and pagination', async () => {
    const all = await app.get('/api/users?sort=id:asc', { token: full });
    expect(all.status).to.equal(200);
    expect(all.body.map((user: Record<string, unknown>) => user.username)).to.deep.equal(['bob', 'amy', 'cid']);
    expect(Object.keys(all.body[0])).to.deep.equal(USER_KEYS);
    expect((await app.get('/api/users?sort=username:asc', { token: full })).body.map((user: { username: string }) => user.username)).to.deep.equal(['amy', 'bob', 'cid']);
    expect((await app.get('/api/users?filters[username][$eq]=cid', { token: full })).body.map((user: { id: number }) => user.id)).to.deep.equal([ids.cid]);
    expect((await app.get('/api/users?sort=id:asc&pagination[start]=1&pagination[limit]=1', { token: full })).body.map((user: { username: string }) => user.username)).to.deep.equal(['amy']);
    expect((await app.get('/api/users?sort=id:asc&start=2&limit=5', { token: full })).body.map((user: { username: string }) => user.username)).to.deep.equal(['cid']);
    expect((await app.get('/api/users?filters[nope]=1', { token: full })).status).to.equal(400);
  });

  it('GET /users/count counts, with filters (sample 82)', async () => {
    const count = await app.get('/api/users/count', { token: full });
    expect(count.status).to.equal(200);
    expect(count.text).to.equal('3');
    expect((await app.get('/api/users/count?filters[username][$startsWith]=b', { token: full })).body).to.equal(1);
  });

  it('GET /users/:id with populate=role (sample 83); unknown ids are 404', async () => {
    const one = await app.get(`/api/users/${ids.bob}?populate=role`, { token: full });
    expect(Object.keys(one.body)).to.deep.equal([...USER_KEYS, 'role']);
    expect(Object.keys(one.body.role)).to.deep.equal(['id', 'name', 'description', 'type', 'createdAt', 'updatedAt']);
    expect(one.body.role.type).to.equal('authenticated');
    expect((await app.get('/api/users/9999', { token: full })).body).to.deep.equal(errorBody(404, 'NotFoundError', 'Not Found'));
    expect((await app.get('/api/users/abc', { token: full })).status).to.equal(404);
  });

  it('anonymous and plain users may not list, read, create, update or delete users (sample 92)', async () => {
    const { jwt } = await register(app, 'dan');
    for (const token of [undefined, jwt]) {
      expect((await app.get('/api/users', { token })).body).to.deep.equal(FORBIDDEN);
      expect((await app.get('/api/users/count', { token })).body).to.deep.equal(FORBIDDEN);
      expect((await app.get(`/api/users/${ids.bob}`, { token })).body).to.deep.equal(FORBIDDEN);
      expect((await app.post('/api/users', { username: 'x', email: 'x@example.com', password: 'Passw0rd!' }, { token })).body).to.deep.equal(FORBIDDEN);
      expect((await app.put(`/api/users/${ids.bob}`, { username: 'x' }, { token })).body).to.deep.equal(FORBIDDEN);
      expect((await app.delete(`/api/users/${ids.bob}`, { token })).body).to.deep.equal(FORBIDDEN);
    }
  });

  it('POST /users creates (201) with the default role; taken identities are 400', async () => {
    const created = await app.post('/api/users', { username: 'eve', email: 'Eve@Example.com', password: 'Passw0rd!' }, { token: full });
    expect(created.status).to.equal(201);
    expect(Object.keys(created.body)).to.deep.equal([...USER_KEYS, 'role']);
    expect(created.body).to.include({ username: 'eve', email: 'eve@example.com', provider: 'local', confirmed: false, blocked: false });
    expect(created.body.role.type).to.equal('authenticated');
    expect((await app.post('/api/auth/local', { identifier: 'eve', password: 'Passw0rd!' })).status).to.equal(200);
    expect((await app.post('/api/users', { username: 'eve', email: 'eve2@example.com', password: 'Passw0rd!' }, { token: full })).body).to.deep.equal(errorBody(400, 'ApplicationError', 'Username already taken'));
    expect((await app.post('/api/users', { username: 'eve2', email: 'EVE@example.com', password: 'Passw0rd!' }, { token: full })).body).to.deep.equal(errorBody(400, 'ApplicationError', 'Email already taken'));
    expect((await app.post('/api/users', { username: 'eve3', email: 'eve3@example.com' }, { token: full })).status).to.equal(400);
    expect((await app.post('/api/users', { username: 'eve3', email: 'eve3@example.com', password: 'Passw0rd!', resetPasswordToken: 'abc' }, { token: full })).status).to.equal(400);
    expect(await app.app.db.query('plugin::users-permissions.user').count({ where: { username: 'eve3' } })).to.equal(0);
  });

  it('PUT /users/:id updates, role and confirmed included for a holder of the update action (sample 91)', async () => {
    const updated = await app.put(`/api/users/${ids.bob}`, { username: 'bobby', role: 1, confirmed: false }, { token: full });
    expect(updated.status).to.equal(200);
    expect(Object.keys(updated.body)).to.deep.equal([...USER_KEYS, 'role']);
    expect(updated.body).to.include({ username: 'bobby', confirmed: false });
    expect(updated.body.role.id).to.equal(1);
    expect((await app.put(`/api/users/${ids.bob}`, { username: 'amy' }, { token: full })).body).to.deep.equal(errorBody(400, 'ApplicationError', 'Username already taken'));
    expect((await app.put(`/api/users/${ids.bob}`, { confirmationToken: 'x' }, { token: full })).status).to.equal(400);
    expect((await app.put('/api/users/9999', { username: 'zed' }, { token: full })).status).to.equal(404);
    const password = await app.put(`/api/users/${ids.bob}`, { password: 'An0therPass' }, { token: full });
    expect(password.status).to.equal(200);
    expect((await app.post('/api/auth/local', { identifier: 'bobby', password: 'An0therPass' })).status).to.equal(200);
  });

  it('DELETE /users/:id answers the deleted user; its JWT stops working', async () => {
    const { jwt, id } = await register(app, 'gone');
    const deleted = await app.delete(`/api/users/${id}`, { token: full });
    expect(deleted.status).to.equal(200);
    expect(Object.keys(deleted.body)).to.deep.equal(USER_KEYS);
    expect((await app.get(`/api/users/${id}`, { token: full })).status).to.equal(404);
    expect((await app.get('/api/users/me', { token: jwt })).status).to.equal(401);
  });

  it('no filter, sort, field list or populate reaches a private field, even with full access', async () => {
    for (const query of ['filters[password][$startsWith]=$2', 'filters[resetPasswordToken][$null]=false', 'filters[confirmationToken][$notNull]=true', 'sort=password:asc', 'fields[0]=password', 'fields=resetPasswordToken', 'populate[role][populate][users][filters][password][$startsWith]=$2']) {
      const response = await app.get(`/api/users?${query}`, { token: full });
      expect(response.status, query).to.equal(400);
      expect(response.body.error.name, query).to.equal('ValidationError');
      // count reads only filters (and _q): a private field there is a 400 too.
      if (query.startsWith('filters')) expect((await app.get(`/api/users/count?${query}`, { token: full })).status, `count ${query}`).to.equal(400);
    }
  });

  it('users reached through a relation: only with user.find, never their private fields, never filtered by them', async () => {
    const post = await app.post('/api/posts', { data: { title: 'Hello', author: ids.amy } }, { token: full });
    expect(post.status).to.equal(200);
    // Anonymous callers may read posts, not users: the author is left out, and filtering through it is a 400.
    const anonymous = await app.get('/api/posts?populate=author');
    expect(anonymous.status).to.equal(200);
    expect(anonymous.body.data[0].attributes).to.not.have.property('author');
    expect((await app.get('/api/posts?filters[author][username][$eq]=amy')).status).to.equal(400);
    // A full-access token sees the author, without private fields; filtering by a private field through the relation is a 400.
    const populated = await app.get('/api/posts?populate=author', { token: full });
    expect(Object.keys(populated.body.data[0].attributes.author.data.attributes)).to.deep.equal(USER_KEYS.filter((key) => key !== 'id'));
    expect((await app.get('/api/posts?populate[author][fields][0]=password', { token: full })).status).to.equal(400);
    expect((await app.get('/api/posts?filters[author][password][$startsWith]=$2', { token: full })).status).to.equal(400);
    expect((await app.get('/api/posts?sort=author.password', { token: full })).status).to.equal(400);
  });
});

eachDatabase('users-permissions: PUT /users/:id opened to users through another scope', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startUpApp(dialect, { files: { 'src/extensions/users-permissions/strapi-server.ts': OWN_PROFILE_EXTENSION } });
  });
  after(() => app?.stop());

  it('a user may edit their own profile but not promote themselves, unblock, or change the password without the current one', async () => {
    const admins = await app.app.db.query('plugin::users-permissions.role').create({ data: { name: 'Admins', type: 'admins', description: '' } });
    const me = await register(app, 'hank');
    const other = await register(app, 'ivy');
    const own = await app.put(`/api/users/${me.id}`, { username: 'hank2' }, { token: me.jwt });
    expect(own.status).to.equal(200);
    expect(own.body.username).to.equal('hank2');
    expect(own.body).to.not.have.property('role');
    for (const body of [{ role: admins.id }, { confirmed: true }, { blocked: false }, { provider: 'github' }, { password: 'Hijack3dPass' }, { username: 'x9', role: admins.id }]) {
      const response = await app.put(`/api/users/${me.id}`, body, { token: me.jwt });
      expect(response.status, JSON.stringify(body)).to.equal(403);
      expect(response.body.error.name).to.equal('ForbiddenError');
    }
    const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { id: me.id }, populate: { role: true } });
    expect(stored).to.include({ username: 'hank2', provider: 'local' });
    expect((stored!.role as { type: string }).type).to.equal('authenticated');
    expect((await app.put(`/api/users/${other.id}`, { username: 'ivy2' }, { token: me.jwt })).body.error).to.deep.equal({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
  });
});

/**
 * What authentication costs per request, in SQL: an anonymous request reads
 * the public role's permissions once, then never again until a permission
 * changes; a JWT request reads its user (and role id) once and its role's
 * permissions from the cache; `/users` lists cost the same whatever their size.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { register, startUpApp } from './fixture';

eachDatabase('users-permissions: SQL per request', (dialect) => {
  let app: TestApp;
  let jwt: string;
  let full: string;
  const queriesOf = async (work: () => Promise<unknown>): Promise<string[]> => {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
    try {
      await work();
    } finally {
      stop();
    }
    return queries;
  };
  before(async () => {
    // A cache that outlives the test: these counts must not depend on how long a busy machine takes between two
    // requests (the default 1 s expired between the warm read and the check under load). A change still reaches
    // the cache through the write it watches, which is what the first test shows.
    app = await startUpApp(dialect, { config: { permissionsCacheTtl: 3_600_000 } });
    full = await app.fullAccessToken();
    jwt = (await register(app, 'uma')).jwt;
    await app.get('/api/posts');
    await app.get('/api/users/me', { token: jwt });
  });
  after(() => app?.stop());

  it('anonymous: no permission query once the public role is cached; one after a permission change', async () => {
    const read = async () => expect((await app.get('/api/posts?fields[0]=title')).status).to.equal(200);
    const warm = await queriesOf(read);
    expect(warm.filter((sql) => sql.includes('up_permissions'))).to.deep.equal([]);
    await app.app.query('plugin::users-permissions.permission').create({ data: { action: 'api::note.note.find', role: 2 } });
    const afterChange = await queriesOf(read);
    expect(afterChange.filter((sql) => sql.includes('up_permissions')).length).to.equal(1);
    expect((await queriesOf(read)).filter((sql) => sql.includes('up_permissions'))).to.deep.equal([]);
  });

  it('a JWT request: its user once, its role from the cache', async () => {
    await app.get('/api/users/me', { token: jwt });
    const queries = await queriesOf(async () => expect((await app.get('/api/users/me', { token: jwt })).status).to.equal(200));
    expect(queries.filter((sql) => sql.includes('up_permissions'))).to.deep.equal([]);
    // The bearer token is offered to API tokens first (one look-up by hash), then the strategy reads the user and
    // its role, then the controller reads the answer.
    expect(queries.filter((sql) => sql.includes('strapi_api_tokens')).length).to.equal(1);
    expect(queries.filter((sql) => /from [`"]up_users[`"]/i.test(sql)).length).to.equal(2);
    expect(queries.length, queries.join('\n')).to.equal(4);
  });

  it('GET /users costs the same for 2 or 20 users (populate included)', async () => {
    for (let n = 0; n < 18; n += 1) await app.app.plugin('users-permissions')!.service('user').add({ username: `bulk${n}`, email: `bulk${n}@example.com`, password: 'Passw0rd!' });
    const small = await queriesOf(() => app.get('/api/users?populate=role&pagination[limit]=2', { token: full }));
    const large = await queriesOf(() => app.get('/api/users?populate=role&pagination[limit]=20', { token: full }));
    expect(large.length).to.equal(small.length);
  });
});

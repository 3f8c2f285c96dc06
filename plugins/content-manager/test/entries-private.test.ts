/**
 * Private attributes in the content manager, as Strapi 4.26.2 answers them (recorded on the peer, 2026-11-30, with
 * this note type: a private text and a private relation): `private` keeps an attribute out of the content API only,
 * so an admin reads, filters, sorts, searches and edits it, and its relation picker is served. What a schema hides
 * from the admin (`config.attributes.<name>.hidden`: the users-permissions user's provider and tokens) and passwords
 * never leave, whatever the role.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerFirstAdmin, startEntriesApp } from './entries-fixture';

const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    memo: { type: 'text', private: true },
    reviewer: { type: 'relation', relation: 'oneToOne', target: 'api::writer.writer', private: true },
  },
};
const N = '/content-manager/collection-types/api::note.note';
const USERS = '/content-manager/collection-types/plugin::users-permissions.user';
/** The keys of Strapi 4.26.2's content-manager answer for a users-permissions user (peer, 2026-11-30). */
const USER_KEYS = ['id', 'username', 'email', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'role', 'createdBy', 'updatedBy'];

eachDatabase('content manager entries: private attributes are the admin’s, hidden ones are not', (dialect) => {
  let app: TestApp;
  let token: string;
  let writerId = 0;
  before(async () => {
    app = await startEntriesApp(dialect, { usersPermissions: true, files: { 'src/api/note/content-types/note/schema.json': NOTE } });
    token = await registerFirstAdmin(app);
    writerId = (await app.post('/content-manager/collection-types/api::writer.writer', { name: 'Writer 2' }, { token })).body.id;
    for (const [title, memo] of [['N', 'secret memo'], ['M', 'other']]) {
      const body = { title, memo, reviewer: { connect: title === 'N' ? [{ id: writerId }] : [], disconnect: [] } };
      expect((await app.post(N, body, { token })).status).to.equal(200);
    }
  });
  after(() => app?.stop());

  it('answers a private text and a private relation to the admin, and stores an edit of them', async () => {
    const found = await app.get(`${N}/1`, { token });
    expect([found.body.title, found.body.memo, found.body.reviewer]).to.deep.equal(['N', 'secret memo', { count: 1 }]);
    const edited = await app.put(`${N}/1`, { memo: 'edited memo' }, { token });
    expect([edited.status, edited.body.memo]).to.deep.equal([200, 'edited memo']);
    const list = await app.get(`${N}?page=1&pageSize=10&sort=id:ASC`, { token });
    expect(list.body.results.map((note: { memo: string; reviewer: { name: string } | null }) => [note.memo, note.reviewer?.name ?? null])).to.deep.equal([['edited memo', 'Writer 2'], ['other', null]]);
  });

  it('filters, sorts and searches (_q) on the private text, and filters through the private relation', async () => {
    const titles = async (query: string) => (await app.get(`${N}?page=1&pageSize=10&${query}`, { token })).body.results.map((note: { title: string }) => note.title);
    expect(await titles('filters[$and][0][memo][$eq]=other')).to.deep.equal(['M']);
    expect(await titles('sort=memo:ASC')).to.deep.equal(['N', 'M']);
    expect(await titles('_q=other')).to.deep.equal(['M']);
    expect(await titles('filters[$and][0][reviewer][name][$eq]=Writer%202')).to.deep.equal(['N']);
  });

  it("serves the private relation's pickers", async () => {
    expect((await app.get(`${N}/1/reviewer`.replace(N, '/content-manager/relations/api::note.note'), { token })).body).to.deep.equal({ data: { id: writerId, name: 'Writer 2' } });
    const available = await app.get('/content-manager/relations/api::note.note/reviewer?pageSize=5&page=1', { token });
    expect(available.body.results.map((writer: { name: string }) => writer.name)).to.deep.equal(['Writer 2']);
  });

  it('never answers them through the content API', async () => {
    const rest = await app.get('/api/notes?populate=*', { token: await app.fullAccessToken() });
    expect(rest.body.data.map((note: { attributes: Record<string, unknown> }) => Object.keys(note.attributes).sort())).to.deep.equal([
      ['createdAt', 'title', 'updatedAt'],
      ['createdAt', 'title', 'updatedAt'],
    ]);
  });

  it("keeps a users-permissions user's provider, tokens and password out of answers, and its tokens out of writes", async () => {
    const created = await app.post(USERS, { username: 'bob', email: 'bob@example.com', password: 'Secret123', confirmed: true, resetPasswordToken: 'planted', provider: 'github', role: { connect: [{ id: 1 }] } }, { token });
    expect(created.status, created.text).to.equal(201);
    expect(Object.keys(created.body)).to.deep.equal(USER_KEYS);
    const listed = await app.get(`${USERS}?page=1&pageSize=10`, { token });
    expect(Object.keys(listed.body.results[0])).to.deep.equal(USER_KEYS);
    const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { id: created.body.id }, select: ['resetPasswordToken', 'provider'] });
    expect([stored?.resetPasswordToken, stored?.provider]).to.deep.equal([null, 'local']);
    // Neither a filter nor a sort on a hidden field or a password takes effect.
    const filtered = await app.get(`${USERS}?page=1&pageSize=10&filters[$and][0][provider][$eq]=nothing&filters[$and][1][password][$eq]=x`, { token });
    expect(filtered.body.pagination.total).to.equal(1);
  });

  it("lists users-permissions' roles in the user's role picker, a type the content manager does not display (peer, 2026-11-30)", async () => {
    const picker = await app.get(`/content-manager/relations/plugin::users-permissions.user/role?pageSize=10&_q=&_filter=$containsi&page=1`, { token });
    expect(picker.body).to.deep.equal({ results: [{ id: 1, name: 'Authenticated' }, { id: 2, name: 'Public' }], pagination: { page: 1, pageSize: 10, pageCount: 1, total: 2 } });
    const user = (await app.get(`${USERS}?page=1&pageSize=10`, { token })).body.results[0] as { id: number };
    expect((await app.get(`/content-manager/relations/plugin::users-permissions.user/${user.id}/role`, { token })).body).to.deep.equal({ data: { id: 1, name: 'Authenticated' } });
    const others = await app.get(`/content-manager/relations/plugin::users-permissions.user/role?pageSize=10&_q=Pub&page=1&entityId=${user.id}`, { token });
    expect(others.body).to.deep.equal({ results: [{ id: 2, name: 'Public' }], pagination: { page: 1, pageSize: 10, pageCount: 1, total: 1 } });
  });
});

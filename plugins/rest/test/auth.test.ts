/**
 * Authorization on the REST routes: the public role from
 * config/permissions.ts, API tokens of each type, expiry and revocation, and
 * the exact 401/403 envelopes — real HTTP, both databases.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startItemApp } from './fixture';

const FORBIDDEN = errorBody(403, 'ForbiddenError', 'Forbidden');
const UNAUTHORIZED = errorBody(401, 'UnauthorizedError', 'Missing or invalid credentials');

eachDatabase('REST authorization', (dialect) => {
  let app: TestApp;
  let full: string;
  let ids: number[];
  let noteId: number;
  const token = async (type: 'read-only' | 'full-access' | 'custom', permissions?: string[], durationDays?: number) => {
    const created = await app.app.apiTokens.create({ name: `${type}-${Math.random()}`, type, permissions, durationDays });
    return { accessKey: created.accessKey, id: created.token.id, name: created.token.name };
  };
  before(async () => {
    ({ app, token: full, ids } = await startItemApp(dialect));
    noteId = (await app.post('/api/notes', { data: { text: 'private note' } }, { token: full })).body.data.id;
  });
  after(() => app?.stop());

  it('anonymous callers get exactly the public role of config/permissions.ts', async () => {
    expect((await app.get('/api/items')).status).to.equal(200);
    expect((await app.get(`/api/items/${ids[0]}`)).status).to.equal(200);
    expect((await app.get('/api/notes')).body).to.deep.equal(FORBIDDEN);
    expect((await app.get(`/api/notes/${noteId}`)).body).to.deep.equal(FORBIDDEN);
    expect((await app.post('/api/items', { data: { title: 'Should be forbidden' } })).body).to.deep.equal(FORBIDDEN);
    expect((await app.put(`/api/items/${ids[0]}`, { data: { title: 'x' } })).body).to.deep.equal(FORBIDDEN);
    expect((await app.delete(`/api/items/${ids[0]}`)).body).to.deep.equal(FORBIDDEN);
    // The 403 comes before validation: a bad body or query changes nothing.
    expect((await app.post('/api/items?filters[nope]=1', { nope: true })).body).to.deep.equal(FORBIDDEN);
  });

  it('an invalid token is a 401 even on a public route', async () => {
    for (const header of ['Bearer not-a-valid-token', 'Bearer ', 'Basic abc', 'Bearer a b', 'bearer x']) {
      const response = await app.get('/api/items', { headers: { authorization: header } });
      expect(response.body, header).to.deep.equal(UNAUTHORIZED);
    }
    expect((await app.post('/api/items', { data: { title: 'x' } }, { token: 'nope' })).body).to.deep.equal(UNAUTHORIZED);
  });

  it('the scheme is case-insensitive and surrounding spaces are tolerated', async () => {
    expect((await app.get('/api/notes', { headers: { authorization: `bearer ${full}` } })).status).to.equal(200);
    expect((await app.get('/api/notes', { headers: { authorization: `Bearer   ${full}  ` } })).status).to.equal(200);
  });

  it('a read-only token may find and findOne anything, and write nothing', async () => {
    const { accessKey } = await token('read-only');
    expect((await app.get('/api/notes', { token: accessKey })).status).to.equal(200);
    expect((await app.get(`/api/notes/${noteId}`, { token: accessKey })).status).to.equal(200);
    expect((await app.get('/api/items?publicationState=preview', { token: accessKey })).body.meta.pagination.total).to.equal(8);
    expect((await app.post('/api/notes', { data: { text: 'x' } }, { token: accessKey })).body).to.deep.equal(FORBIDDEN);
    expect((await app.put(`/api/notes/${noteId}`, { data: { text: 'x' } }, { token: accessKey })).body).to.deep.equal(FORBIDDEN);
    expect((await app.delete(`/api/notes/${noteId}`, { token: accessKey })).body).to.deep.equal(FORBIDDEN);
    expect((await app.put('/api/setting', { data: { title: 'x' } }, { token: accessKey })).body).to.deep.equal(FORBIDDEN);
  });

  it('a full-access token may do everything', async () => {
    const { accessKey } = await token('full-access');
    const created = await app.post('/api/notes', { data: { text: 'by full' } }, { token: accessKey });
    expect(created.status).to.equal(200);
    expect((await app.put(`/api/notes/${created.body.data.id}`, { data: { rank: 2 } }, { token: accessKey })).body.data.attributes.rank).to.equal(2);
    expect((await app.delete(`/api/notes/${created.body.data.id}`, { token: accessKey })).status).to.equal(200);
  });

  it('a custom token may do exactly its listed actions', async () => {
    const { accessKey } = await token('custom', ['api::note.note.find', 'api::item.item.create']);
    expect((await app.get('/api/notes', { token: accessKey })).status).to.equal(200);
    expect((await app.get(`/api/notes/${noteId}`, { token: accessKey })).body).to.deep.equal(FORBIDDEN);
    expect((await app.post('/api/notes', { data: { text: 'x' } }, { token: accessKey })).body).to.deep.equal(FORBIDDEN);
    const created = await app.post('/api/items', { data: { title: 'by custom' } }, { token: accessKey });
    expect(created.status).to.equal(200);
    // A token holding no find on items may not preview their drafts, even on a public route.
    expect((await app.get('/api/items?publicationState=preview', { token: accessKey })).body).to.deep.equal(FORBIDDEN);
    // The public role is not added to a token's own actions.
    expect((await app.get('/api/items', { token: accessKey })).body).to.deep.equal(FORBIDDEN);
  });

  it('a custom token with find may preview drafts', async () => {
    const { accessKey } = await token('custom', ['api::item.item.find']);
    const response = await app.get('/api/items?publicationState=preview&filters[publishedAt][$null]=true&fields[0]=title', { token: accessKey });
    expect(response.status).to.equal(200);
    expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.include('Draft donut');
  });

  it('an expired token is a 401; a token with time left works', async () => {
    const { accessKey, name } = await token('full-access', undefined, 7);
    expect((await app.get('/api/notes', { token: accessKey })).status).to.equal(200);
    const past = Date.now() - 60_000;
    await app.app.db.sql.raw('UPDATE strapi_api_tokens SET expires_at = ? WHERE name = ?', [dialect === 'sqlite' ? past : dialect === 'mysql' ? new Date(past) : new Date(past).toISOString(), name]);
    const expired = await app.get('/api/notes', { token: accessKey });
    expect(expired.status).to.equal(401);
    expect(expired.body.error.name).to.equal('UnauthorizedError');
    expect((await app.get('/api/items', { token: accessKey })).status).to.equal(401);
  });

  it('a read hook on tokens sees the look-up in Strapi\'s parameters, and the token still works', async () => {
    const { accessKey } = await token('full-access');
    const seen: unknown[] = [];
    const unsubscribe = app.app.db.lifecycles.subscribe({ models: ['admin::api-token'], beforeFindOne: (event) => void seen.push(event.params) });
    try {
      expect((await app.get('/api/notes', { token: accessKey })).status).to.equal(200);
    } finally {
      unsubscribe();
    }
    expect(seen).to.deep.equal([{ where: { accessKey: app.app.apiTokens.hash(accessKey) }, select: ['name', 'type', 'expiresAt'] }]);
    expect((await app.get('/api/notes', { token: accessKey })).status).to.equal(200);
  });

  it('a revoked token is a 401; tokens are stored only as hashes', async () => {
    const { accessKey, id } = await token('full-access');
    expect((await app.get('/api/notes', { token: accessKey })).status).to.equal(200);
    const stored = await app.app.db.sql.raw('SELECT access_key FROM strapi_api_tokens WHERE id = ?', [id]);
    expect(JSON.stringify(stored)).not.to.include(accessKey);
    expect(await app.app.apiTokens.revoke(String(id))).to.equal(true);
    expect((await app.get('/api/notes', { token: accessKey })).body).to.deep.equal(UNAUTHORIZED);
  });
});

eachDatabase('REST authorization: previewing a write answer', (dialect) => {
  let app: TestApp;
  const actions = ['api::item.item.find', 'api::item.item.findOne', 'api::item.item.create', 'api::setting.setting.find'];
  before(async () => {
    // The public role may create items, and a custom token holds exactly the same actions: the same read scope.
    ({ app } = await startItemApp(dialect, { files: { 'config/permissions.ts': `export default { public: ${JSON.stringify(actions)} };\n` } }));
  });
  after(() => app?.stop());

  it('an anonymous write may not preview, even after a token with the same read scope previewed the same answer', async () => {
    const path = '/api/items?publicationState=preview&fields[0]=title';
    expect((await app.post(path, { data: { title: 'anonymous, first' } })).body).to.deep.equal(FORBIDDEN);
    const { accessKey } = await app.app.apiTokens.create({ name: 'same scope', type: 'custom', permissions: actions });
    const byToken = await app.post(path, { data: { title: 'by token' } }, { token: accessKey });
    expect(byToken.status).to.equal(200);
    expect(byToken.body.data.attributes).to.deep.equal({ title: 'by token' });
    expect((await app.post(path, { data: { title: 'anonymous, after' } })).body).to.deep.equal(FORBIDDEN);
    // Without preview the anonymous write is allowed, and answers as the token's did.
    const anonymous = await app.post('/api/items?fields[0]=title', { data: { title: 'anonymous' } });
    expect(anonymous.status).to.equal(200);
    expect(anonymous.body.data.attributes).to.deep.equal({ title: 'anonymous' });
  });
});

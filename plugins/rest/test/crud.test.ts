/**
 * Create, update, delete and the single-type lifecycle over REST, with the
 * exact envelopes and the validation errors Strapi v4 gives — real HTTP,
 * both databases.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startItemApp } from './fixture';

const MISSING_DATA = errorBody(400, 'ValidationError', 'Missing "data" payload in the request body');

eachDatabase('REST create, update, delete', (dialect) => {
  let app: TestApp;
  let token: string;
  let ids: number[];
  before(async () => {
    ({ app, token, ids } = await startItemApp(dialect));
  });
  after(() => app?.stop());

  it('create answers 200 with the entry, published now, private fields hidden', async () => {
    const before = Date.now();
    const response = await app.post('/api/items', { data: { title: 'Fresh', code: 'n1', count: 3, secret: 'hidden', password: 'longenough' } }, { token });
    expect(response.status).to.equal(200);
    const { id, attributes } = response.body.data;
    expect(id).to.be.a('number');
    expect(response.body.meta).to.deep.equal({});
    expect(attributes).to.deep.include({ title: 'Fresh', code: 'n1', count: 3, body: null, big: null, price: null, active: null, data: null });
    expect(attributes).not.to.have.any.keys('secret', 'password');
    expect(attributes.createdAt).to.equal(attributes.updatedAt);
    expect(Date.parse(attributes.publishedAt)).to.be.within(before - 1000, Date.now() + 1000);
    const read = await app.get(`/api/items/${id}`);
    expect(read.body.data).to.deep.equal(response.body.data);
  });

  it('create with publishedAt null makes a draft; an explicit publishedAt is kept', async () => {
    const draft = await app.post('/api/items', { data: { title: 'Later', publishedAt: null } }, { token });
    expect(draft.status).to.equal(200);
    expect(draft.body.data.attributes.publishedAt).to.equal(null);
    expect((await app.get(`/api/items/${draft.body.data.id}`)).status).to.equal(404);
    const dated = await app.post('/api/items', { data: { title: 'Dated', publishedAt: '2020-05-06T07:08:09.000Z' } }, { token });
    expect(dated.body.data.attributes.publishedAt).to.equal('2020-05-06T07:08:09.000Z');
  });

  it('update changes only the sent fields; null clears; updatedAt moves', async () => {
    const created = await app.post('/api/items', { data: { title: 'Partial', body: 'keep me', count: 1, kind: 'beta' } }, { token });
    const id = created.body.data.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await app.put(`/api/items/${id}`, { data: { count: 2, kind: null } }, { token });
    expect(updated.status).to.equal(200);
    const attributes = updated.body.data.attributes;
    expect(attributes).to.deep.include({ title: 'Partial', body: 'keep me', count: 2, kind: null });
    expect(attributes.createdAt).to.equal(created.body.data.attributes.createdAt);
    expect(attributes.publishedAt).to.equal(created.body.data.attributes.publishedAt);
    expect(Date.parse(attributes.updatedAt)).to.be.greaterThan(Date.parse(created.body.data.attributes.updatedAt));
    const unpublished = await app.put(`/api/items/${id}`, { data: { publishedAt: null } }, { token });
    expect(unpublished.body.data.attributes.publishedAt).to.equal(null);
    const draftUpdate = await app.put(`/api/items/${id}`, { data: { title: 'Still a draft' } }, { token });
    expect(draftUpdate.status).to.equal(200);
    expect(draftUpdate.body.data.attributes).to.deep.include({ title: 'Still a draft', publishedAt: null });
  });

  it('ignores system fields sent by the client', async () => {
    const response = await app.post('/api/items', {
      data: { title: 'System', id: 999999, createdAt: '2000-01-01T00:00:00.000Z', updatedAt: '2000-01-01T00:00:00.000Z', createdBy: 1, updatedBy: 1 },
    }, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data.id).not.to.equal(999999);
    expect(response.body.data.attributes.createdAt).not.to.equal('2000-01-01T00:00:00.000Z');
    const update = await app.put(`/api/items/${response.body.data.id}`, { data: { id: 1, createdAt: '2000-01-01T00:00:00.000Z' } }, { token });
    expect(update.status).to.equal(200);
    expect(update.body.data.id).to.equal(response.body.data.id);
    expect(update.body.data.attributes.createdAt).to.equal(response.body.data.attributes.createdAt);
  });

  it('rejects unknown attributes and wrong types with 400 details, writing nothing', async () => {
    const unknown = await app.post('/api/items', { data: { title: 'x', nope: 1 } }, { token });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.name).to.equal('ValidationError');
    expect(unknown.body.error.details.errors.map((error: { path: string[] }) => error.path)).to.deep.equal([['nope']]);
    const wrong = await app.post('/api/items', { data: { title: 'x', count: 'abc', active: 'yes please' } }, { token });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.error.message).to.equal('2 errors occurred');
    expect(wrong.body.error.details.errors.map((error: { path: string[] }) => error.path)).to.deep.equal([['count'], ['active']]);
    const total = await app.get('/api/items?filters[title][$eq]=x');
    expect(total.body.meta.pagination.total).to.equal(0);
    const badUpdate = await app.put(`/api/items/${ids[0]}`, { data: { count: 1.5 } }, { token });
    expect(badUpdate.status).to.equal(400);
    expect((await app.get(`/api/items/${ids[0]}`)).body.data.attributes.count).to.equal(10);
  });

  it('publishedAt on a type without draft/publish is ignored, as Strapi 4.26.2 answers (POST /api/categories on the peer: 200, no publishedAt)', async () => {
    const response = await app.post('/api/notes', { data: { text: 'n', publishedAt: '2024-01-01T00:00:00.000Z' } }, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data.attributes).to.have.keys('text', 'rank', 'createdAt', 'updatedAt');
    const plain = await app.post('/api/notes', { data: { text: 'n' } }, { token });
    expect(plain.status).to.equal(200);
    expect(plain.body.data.attributes).to.have.keys('text', 'rank', 'createdAt', 'updatedAt');
  });

  it('missing or malformed data is a 400 with the exact message', async () => {
    expect((await app.post('/api/items', { title: 'no wrapper' }, { token })).body).to.deep.equal(MISSING_DATA);
    expect((await app.post('/api/items', undefined, { token })).body).to.deep.equal(MISSING_DATA);
    expect((await app.post('/api/items', { data: null }, { token })).body).to.deep.equal(MISSING_DATA);
    expect((await app.put(`/api/items/${ids[0]}`, { nope: 1 }, { token })).body).to.deep.equal(MISSING_DATA);
    for (const body of [{ data: 'text' }, { data: [1, 2] }, { data: 5 }, [1], 'text']) {
      const response = await app.post('/api/items', body, { token });
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
    }
    const broken = await app.request('POST', '/api/items', { rawBody: '{"data": {', token });
    expect(broken.status).to.equal(400);
    expect(broken.body.data).to.equal(null);
  });

  it('unique violations are a 400 "This attribute must be unique" on create and update, drafts included', async () => {
    const expected = errorBody(400, 'ValidationError', 'This attribute must be unique', {
      errors: [{ path: ['code'], message: 'This attribute must be unique', name: 'ValidationError' }],
    });
    expect((await app.post('/api/items', { data: { title: 'dup', code: 'c1' } }, { token })).body).to.deep.equal(expected);
    expect((await app.post('/api/items', { data: { title: 'dup', code: 'c8' } }, { token })).body).to.deep.equal(expected);
    expect((await app.put(`/api/items/${ids[1]}`, { data: { code: 'c1' } }, { token })).body).to.deep.equal(expected);
    const same = await app.put(`/api/items/${ids[0]}`, { data: { code: 'c1' } }, { token });
    expect(same.status).to.equal(200);
  });

  it('delete answers the deleted entry, then the entry is gone', async () => {
    const created = await app.post('/api/items', { data: { title: 'Doomed', count: 7 } }, { token });
    const id = created.body.data.id;
    const deleted = await app.delete(`/api/items/${id}`, { token });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal(created.body);
    expect((await app.get(`/api/items/${id}`)).body).to.deep.equal(errorBody(404, 'NotFoundError', 'Not Found'));
    expect((await app.delete(`/api/items/${id}`, { token })).status).to.equal(404);
    expect((await app.put(`/api/items/${id}`, { data: { title: 'x' } }, { token })).body).to.deep.equal(errorBody(404, 'NotFoundError', 'Not Found'));
  });

  it('unknown or malformed ids are 404s', async () => {
    for (const id of ['999999', 'abc', '1.5', '-1', '1e3', '99999999999999999999']) {
      expect((await app.get(`/api/items/${id}`)).status, id).to.equal(404);
      expect((await app.put(`/api/items/${id}`, { data: { title: 'x' } }, { token })).status, id).to.equal(404);
      expect((await app.delete(`/api/items/${id}`, { token })).status, id).to.equal(404);
    }
  });

  it('write routes honour fields and publicationState of the answer', async () => {
    const response = await app.post('/api/items?fields[0]=title', { data: { title: 'Slim', count: 4 } }, { token });
    expect(response.body.data.attributes).to.deep.equal({ title: 'Slim' });
    const bad = await app.post('/api/items?fields[0]=secret', { data: { title: 'Nope' } }, { token });
    expect(bad.status).to.equal(400);
  });
});

eachDatabase('REST single type', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    ({ app, token } = await startItemApp(dialect));
  });
  after(() => app?.stop());

  it('GET absent → 404; PUT creates; PUT updates partially; DELETE; GET → 404', async () => {
    expect((await app.get('/api/setting')).body).to.deep.equal(errorBody(404, 'NotFoundError', 'Not Found'));
    expect((await app.delete('/api/setting', { token })).status).to.equal(404);
    const created = await app.put('/api/setting', { data: { title: 'Site', motto: 'Fast' } }, { token });
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes).to.deep.include({ title: 'Site', motto: 'Fast' });
    expect(created.body.data.attributes).to.have.keys('title', 'motto', 'createdAt', 'updatedAt');
    const read = await app.get('/api/setting');
    expect(read.body).to.deep.equal(created.body);
    const updated = await app.put('/api/setting', { data: { title: 'Site 2' } }, { token });
    expect(updated.body.data.id).to.equal(created.body.data.id);
    expect(updated.body.data.attributes).to.deep.include({ title: 'Site 2', motto: 'Fast' });
    const fields = await app.get('/api/setting?fields[0]=motto');
    expect(fields.body.data).to.deep.equal({ id: created.body.data.id, attributes: { motto: 'Fast' } });
    expect((await app.put('/api/setting', { title: 'no data' }, { token })).body).to.deep.equal(MISSING_DATA);
    const deleted = await app.delete('/api/setting', { token });
    expect(deleted.body.data.attributes.title).to.equal('Site 2');
    expect((await app.get('/api/setting')).status).to.equal(404);
    expect((await app.get('/api/settings')).status).to.equal(404);
    expect((await app.put('/api/setting', { data: { title: 'Again' } })).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
  });

  it('parallel PUTs on an absent single type create exactly one entry (Postgres made one per request)', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => app.put('/api/setting', { data: { title: `T${n}` } }, { token })));
    expect(responses.map((response) => response.status)).to.deep.equal(responses.map(() => 200));
    expect(new Set(responses.map((response) => response.body.data.id)).size).to.equal(1);
    expect(await app.app.entityService.count('api::setting.setting')).to.equal(1);
    expect((await app.delete('/api/setting', { token })).status).to.equal(200);
    expect((await app.get('/api/setting')).status).to.equal(404);
  });
});

eachDatabase('REST top-level parameters', (dialect) => {
  let lax: TestApp;
  let strict: TestApp;
  let strictToken: string;
  before(async () => {
    ({ app: lax } = await startItemApp(dialect));
    ({ app: strict, token: strictToken } = await startItemApp(dialect, { config: { api: { rest: { strictParams: true } } } }));
  });
  after(async () => {
    await lax?.stop();
    await strict?.stop();
  });

  it('ignores unknown top-level parameters by default', async () => {
    const response = await lax.get('/api/items?where[title]=Zebra&foo=bar&locale=en&_q=&fields[0]=title');
    expect(response.status).to.equal(200);
    expect(response.body.meta.pagination.total).to.equal(7);
  });

  it('rejects them with 400 when api.rest.strictParams is true', async () => {
    expect((await strict.get('/api/items?where[title]=Zebra')).body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter where'));
    expect((await strict.get('/api/items/1?foo=1')).body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter foo'));
    expect((await strict.post('/api/items?bar=1', { data: { title: 'x' } }, { token: strictToken })).status).to.equal(400);
    const fine = await strict.get('/api/items?fields[0]=title&pagination[pageSize]=1');
    expect(fine.status).to.equal(200);
    // `locale` is i18n's parameter: without that plugin nothing declared it, so strict mode refuses it too.
    expect((await strict.get('/api/items?locale=en')).body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter locale'));
  });
});

/**
 * A core service's answer for an entry that does not exist is `null`, as Strapi 4.26.2's (recorded on the peer:
 * `strapi.service(uid)` findOne, update and delete of a missing id, and a single type's find and delete without
 * an entry, all `null`), so app code's `if (!entry)` works; the core controller answers that null with the 404.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const STRAPI_4_26_2 = { findOne: null, update: null, delete: null, singleFind: null, singleDelete: null };

const files = {
  'src/api/tag/content-types/tag/schema.json': {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
  'src/api/homepage/content-types/homepage/schema.json': {
    kind: 'singleType',
    collectionName: 'homepages',
    info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  },
};

const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

eachDatabase('a core service answers null for an entry that does not exist, as Strapi 4.26.2', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files });
  });
  after(() => app?.stop());

  it('findOne, update and delete of a missing id, and a single type without its entry', async () => {
    const tags = app.app.service<{ findOne(id: unknown): Promise<unknown>; update(id: unknown, params: unknown): Promise<unknown>; delete(id: unknown): Promise<unknown> }>('api::tag.tag')!;
    const homepage = app.app.service<{ find(): Promise<unknown>; delete(id?: unknown): Promise<unknown> }>('api::homepage.homepage')!;
    const answers = {
      findOne: await tags.findOne(999999),
      update: await tags.update(999999, { data: { name: 'x' } }),
      delete: await tags.delete(999999),
      singleFind: await homepage.find(),
      singleDelete: await homepage.delete(),
    };
    expect(answers).to.deep.equal(STRAPI_4_26_2);
  });

  it('the core controller answers those nulls with a 404, as before', async () => {
    const token = await app.fullAccessToken();
    expect((await app.get('/api/tags/999999', { token })).body).to.deep.equal(NOT_FOUND);
    expect((await app.put('/api/tags/999999', { data: { name: 'x' } }, { token })).body).to.deep.equal(NOT_FOUND);
    expect((await app.delete('/api/tags/999999', { token })).body).to.deep.equal(NOT_FOUND);
    expect((await app.get('/api/homepage', { token })).body).to.deep.equal(NOT_FOUND);
    expect((await app.delete('/api/homepage', { token })).body).to.deep.equal(NOT_FOUND);
  });
});

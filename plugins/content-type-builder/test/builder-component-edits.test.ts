/**
 * Editing components and their categories in the builder (development), as Strapi 4.26.2's schema builder does
 * (its `editComponent`, `editCategory`, `deleteCategory`; answers and files recorded on the peer under `strapi
 * develop`, 2026-11-30, in recorded/edit-components/): a component's info and attributes rewritten in its file;
 * a new category moving the file and renaming every field that uses it; a type edited with a new component made in
 * the same save; a category renamed and then deleted with the fields using its components. After each write the app restarts on the files, and the content API writes
 * through the changed component.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { DevelopSession, filesUnder, recorded } from './builder-fixture';

const BASE = '/content-type-builder';
const ARTICLE = 'src/api/article/content-types/article/schema.json';

eachDatabase('content-type builder: editing components and categories', (dialect) => {
  const session = new DevelopSession(dialect);
  before(() => session.start());
  after(() => session.stop());
  const restart = () => session.restart();

  it('edits a component: its info and attributes in its file, then a restart; the content API writes the new field', async () => {
    const body = { component: { displayName: 'Search engines', category: 'shared', icon: 'search', attributes: { metaTitle: { type: 'string', required: true }, keywords: { type: 'string' } } } };
    const edited = await session.app.put(`${BASE}/components/shared.seo`, body, { token: session.token });
    expect({ status: edited.status, body: edited.body }).to.deep.equal({ status: 200, body: { data: { uid: 'shared.seo' } } });
    expect(fs.readFileSync(path.join(session.app.dir, 'src/components/shared/seo.json'), 'utf8')).to.equal(recorded('edit-components/seo-edited.json'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.restarts).to.have.length(1);
    await restart();
    const rest = await session.app.fullAccessToken();
    const created = await session.app.post('/api/articles?populate=seo', { data: { title: 'Edited', seo: { metaTitle: 'T', keywords: 'a, b' } } }, { token: rest });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.data.attributes.seo).to.include({ metaTitle: 'T', keywords: 'a, b' });
  });

  it('moves a component to a new category: its file and uid, and the fields that use it, follow', async () => {
    const body = { component: { displayName: 'Search engines', category: 'meta', attributes: { metaTitle: { type: 'string', required: true }, keywords: { type: 'string' } } } };
    const moved = await session.app.put(`${BASE}/components/shared.seo`, body, { token: session.token });
    expect({ status: moved.status, body: moved.body }).to.deep.equal({ status: 200, body: { data: { uid: 'meta.seo' } } });
    expect(filesUnder(path.join(session.app.dir, 'src/components'))).to.deep.equal(['meta/seo.json']);
    expect(fs.readFileSync(path.join(session.app.dir, 'src/components/meta/seo.json'), 'utf8')).to.equal(recorded('edit-components/seo-edited.json'));
    expect(fs.readFileSync(path.join(session.app.dir, ARTICLE), 'utf8')).to.equal(recorded('edit-components/article-after-move.json'));
    expect(fs.existsSync(path.join(session.app.dir, 'src/components/shared'))).to.equal(false);
    await restart();
    expect((await session.app.get(`${BASE}/components/meta.seo`, { token: session.token })).status).to.equal(200);
    const missing = await session.app.put(`${BASE}/components/shared.seo`, body, { token: session.token });
    expect({ status: missing.status, body: missing.body }).to.deep.equal({ status: 404, body: { error: 'component.notFound' } });
  });

  it("renames a category: each component moves; refusals come in Strapi's envelope", async () => {
    const invalid = await session.app.put(`${BASE}/component-categories/meta`, { name: 'x' }, { token: session.token });
    const message = 'name must be at least 3 characters';
    expect({ status: invalid.status, body: invalid.body }).to.deep.equal({ status: 400, body: { error: { name: 'ValidationError', details: { errors: [{ path: ['name'], message, name: 'ValidationError' }] }, message } } });
    const unknown = await session.app.put(`${BASE}/component-categories/nope`, { name: 'another' }, { token: session.token });
    expect(unknown.body).to.deep.equal({ data: null, error: { status: 400, name: 'ApplicationError', message: 'category not found', details: {} } });
    const renamed = await session.app.put(`${BASE}/component-categories/meta`, { name: 'seo-things' }, { token: session.token });
    expect({ status: renamed.status, body: renamed.body }).to.deep.equal({ status: 200, body: { name: 'seo-things' } });
    expect(filesUnder(path.join(session.app.dir, 'src/components'))).to.deep.equal(['seo-things/seo.json']);
    expect(fs.readFileSync(path.join(session.app.dir, ARTICLE), 'utf8')).to.equal(recorded('edit-components/article-after-rename.json'));
    await restart();
  });

  it("edits a type with a new component made in the same save: both files as Strapi writes them (peer, 2026-11-30)", async () => {
    const request = JSON.parse(recorded('edit-category-banner/request.json')) as unknown;
    const edited = await session.app.put(`${BASE}/content-types/api::category.category`, request, { token: session.token });
    expect({ status: edited.status, body: edited.body }).to.deep.equal({ status: 201, body: { data: { uid: 'api::category.category' } } });
    expect(fs.readFileSync(path.join(session.app.dir, 'src/components/blocks/banner.json'), 'utf8')).to.equal(recorded('edit-category-banner/banner.json'));
    expect(fs.readFileSync(path.join(session.app.dir, 'src/api/category/content-types/category/schema.json'), 'utf8')).to.equal(recorded('edit-category-banner/category-schema.json'));
    await restart();
    const rest = await session.app.fullAccessToken();
    const created = await session.app.post('/api/categories?populate=banner', { data: { name: 'With a banner', banner: { text: 'Hello' } } }, { token: rest });
    expect([created.status, created.body.data?.attributes.banner?.text]).to.deep.equal([200, 'Hello']);
  });

  it('deletes a category: its components and the fields that used them are gone', async () => {
    const deleted = await session.app.delete(`${BASE}/component-categories/seo-things`, { token: session.token });
    expect({ status: deleted.status, body: deleted.body }).to.deep.equal({ status: 200, body: { name: 'seo-things' } });
    expect(filesUnder(path.join(session.app.dir, 'src/components'))).to.deep.equal(['blocks/banner.json']);
    expect(fs.readFileSync(path.join(session.app.dir, ARTICLE), 'utf8')).to.equal(recorded('edit-components/article-after-delete.json'));
    await restart();
    expect((await session.app.get(`${BASE}/components/seo-things.seo`, { token: session.token })).status).to.equal(404);
    const again = await session.app.delete(`${BASE}/component-categories/seo-things`, { token: session.token });
    expect(again.body).to.deep.equal({ data: null, error: { status: 400, name: 'ApplicationError', message: 'category not found', details: {} } });
  });
});

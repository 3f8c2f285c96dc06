/**
 * Components, repeatable components, dynamic zones and media: written with
 * the parent entry, read back through populate, replaced on update (old
 * component rows deleted), validated like attributes, and cleaned up when the
 * entry is deleted.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { create, expectValidation, joinRows } from './relations-helpers';

const FILE_UID = 'plugin::upload.file';

eachDatabase('components, dynamic zones and media', (dialect) => {
  let app: TestApp;
  let token: string;
  let files: number[];
  let article: number;

  const count = async (table: string) => {
    const connection = app.app.db.sql;
    const row = await connection.first(connection.knex.from(table).count({ n: '*' }));
    return Number(row?.n);
  };
  const populateAll = 'populate[seo]=*&populate[links]=*&populate[gallery]=*&populate[content][on][shared.rich-text]=*&populate[content][on][shared.quote]=*&populate[content][on][shared.feature][populate]=*';

  before(async () => {
    // One page here holds 14,000 repeatable components: above the default entry budget, which is not what this suite tests.
    app = await startApp({ dialect, from: EXAMPLE_APP, config: { api: { rest: { defaultLimit: 25, maxLimit: 100, maxPopulatedEntries: 100000 } } } });
    token = await app.fullAccessToken();
    files = [];
    for (const name of ['one.png', 'two.png']) {
      const file = await app.app.entityService.create(FILE_UID, {
        data: { name, hash: name.replace('.png', ''), ext: '.png', mime: 'image/png', size: 12.5, url: `/uploads/${name}`, provider: 'local', folderPath: '/', width: 10, height: 20, formats: { thumbnail: { url: `/uploads/t_${name}` } } },
      });
      files.push(file.id);
    }
    article = await create(app, token, 'articles', { title: 'Featured' });
  });
  after(() => app.stop());

  it('round-trips a component, a repeatable component, a dynamic zone (with nesting) and media', async () => {
    const page = await create(app, token, 'pages', {
      title: 'Landing',
      seo: { metaTitle: 'MT', metaDescription: 'MD' },
      links: [{ label: 'Docs', url: '/docs' }, { label: 'Blog', url: '/blog', newTab: true }],
      content: [
        { __component: 'shared.rich-text', body: '# Hi' },
        { __component: 'shared.quote', text: 'Less is more', author: 'Mies' },
        { __component: 'shared.feature', title: 'Read this', link: { label: 'Go', url: '/go' }, article },
      ],
      gallery: [files[1], files[0]],
    });
    const response = await app.get(`/api/pages/${page}?${populateAll}`, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const attributes = response.body.data.attributes;
    expect(attributes.seo).to.deep.include({ metaTitle: 'MT', metaDescription: 'MD' });
    expect(attributes.seo.id).to.be.a('number');
    expect(attributes.links.map(({ id: _id, ...rest }: any) => rest)).to.deep.equal([
      { label: 'Docs', url: '/docs', newTab: false },
      { label: 'Blog', url: '/blog', newTab: true },
    ]);
    const content = attributes.content.map(({ id, ...rest }: any) => {
      expect(id).to.be.a('number');
      return rest;
    });
    expect(content[0]).to.deep.equal({ __component: 'shared.rich-text', body: '# Hi' });
    expect(content[1]).to.deep.equal({ __component: 'shared.quote', text: 'Less is more', author: 'Mies' });
    expect(content[2].__component).to.equal('shared.feature');
    expect(content[2].title).to.equal('Read this');
    expect(content[2].link).to.deep.include({ label: 'Go', url: '/go', newTab: false });
    expect(content[2].article.data.id).to.equal(article);
    expect(content[2].article.data.attributes.title).to.equal('Featured');
    expect(Object.keys(attributes.content[0])).to.deep.equal(['id', '__component', 'body']);
    expect(attributes.gallery.data.map((file: { id: number }) => file.id)).to.deep.equal([files[1], files[0]]);
    const file = attributes.gallery.data[1].attributes;
    expect(file).to.deep.include({ name: 'one.png', mime: 'image/png', url: '/uploads/one.png', width: 10, height: 20, provider: 'local' });
    expect(Number(file.size)).to.equal(12.5);
    expect(file.formats).to.deep.equal({ thumbnail: { url: '/uploads/t_one.png' } });
    expect(file).not.to.have.property('folderPath');
    expect(await joinRows(app, 'pages_components', { entity_id: page }, ['order'])).to.have.length(6);
  });

  it('replaces components on update and deletes the old rows (nested ones too)', async () => {
    const page = await create(app, token, 'pages', {
      title: 'Replace me',
      links: [{ label: 'A', url: '/a' }, { label: 'B', url: '/b' }],
      content: [{ __component: 'shared.feature', title: 'F', link: { label: 'Inner', url: '/inner' } }],
    });
    const linksBefore = await count('components_shared_links');
    const featuresBefore = await count('components_shared_features');
    const response = await app.put(`/api/pages/${page}?${populateAll}`, {
      data: { links: [{ label: 'C', url: '/c' }], content: [{ __component: 'shared.quote', text: 'Q' }] },
    }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.data.attributes.links.map((link: { label: string }) => link.label)).to.deep.equal(['C']);
    expect(response.body.data.attributes.content.map((item: { __component: string }) => item.__component)).to.deep.equal(['shared.quote']);
    // Two page links and the feature's inner link gone, one new link.
    expect(await count('components_shared_links')).to.equal(linksBefore - 3 + 1);
    expect(await count('components_shared_features')).to.equal(featuresBefore - 1);

    // An omitted component stays; null clears it.
    await app.put(`/api/pages/${page}`, { data: { title: 'Renamed' } }, { token });
    const kept = await app.get(`/api/pages/${page}?populate=links`, { token });
    expect(kept.body.data.attributes.links.map((link: { label: string }) => link.label)).to.deep.equal(['C']);
    await app.put(`/api/pages/${page}`, { data: { links: null, seo: null } }, { token });
    const cleared = await app.get(`/api/pages/${page}?populate=links,seo`, { token });
    expect(cleared.body.data.attributes.links).to.deep.equal([]);
    expect(cleared.body.data.attributes.seo).to.equal(null);
  });

  it('validates component data like attributes; unknown components are a 400', async () => {
    expectValidation(await app.post('/api/pages', { data: { title: 'X', links: [{ url: '/no-label' }] } }, { token }), ['links', '0', 'label']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', seo: { metaTitle: 5 } } }, { token }), ['seo', 'metaTitle']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', seo: { nope: 1 } } }, { token }), ['seo', 'nope']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', links: { label: 'A', url: '/a' } } }, { token }), ['links']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', content: [{ __component: 'shared.seo', metaTitle: 'no' }] } }, { token }), ['content', '0', '__component']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', content: [{ body: 'no discriminator' }] } }, { token }), ['content', '0', '__component']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', content: [{ __component: 'shared.feature', title: 'T', link: { label: 'L' } }] } }, { token }), ['content', '0', 'link', 'url']);
    expectValidation(await app.post('/api/pages', { data: { title: 'X', content: [{ __component: 'shared.feature', title: 'T', article: 999999 }] } }, { token }), ['article']);
    const pages = await app.get('/api/pages?filters[title][$eq]=X', { token });
    expect(pages.body.data).to.deep.equal([]);
  });

  it('sets, replaces and clears media by file id', async () => {
    const id = await create(app, token, 'articles', { title: 'With cover', cover: files[0] });
    const read = async () => (await app.get(`/api/articles/${id}?populate[cover][fields][0]=name`, { token })).body.data.attributes.cover;
    expect(await read()).to.deep.equal({ data: { id: files[0], attributes: { name: 'one.png' } } });
    await app.put(`/api/articles/${id}`, { data: { cover: { set: [files[1]] } } }, { token });
    expect(await read()).to.deep.equal({ data: { id: files[1], attributes: { name: 'two.png' } } });
    expectValidation(await app.put(`/api/articles/${id}`, { data: { cover: [files[0], files[1]] } }, { token }), ['cover']);
    await app.put(`/api/articles/${id}`, { data: { cover: null } }, { token });
    expect(await read()).to.deep.equal({ data: null });
    expect(await joinRows(app, 'files_related_morphs', { related_id: id }, ['file_id'])).to.deep.equal([]);
  });

  it('deleting an entry removes its components and media links', async () => {
    const page = await create(app, token, 'pages', {
      title: 'Short-lived',
      seo: { metaTitle: 'gone' },
      content: [{ __component: 'shared.feature', title: 'F', link: { label: 'Inner', url: '/inner' } }],
      gallery: [files[0]],
    });
    const seos = await count('components_shared_seos');
    const links = await count('components_shared_links');
    const response = await app.delete(`/api/pages/${page}`, { token });
    expect(response.status).to.equal(200);
    expect(await count('components_shared_seos')).to.equal(seos - 1);
    expect(await count('components_shared_links')).to.equal(links - 1);
    expect(await joinRows(app, 'pages_components', { entity_id: page }, ['component_id'])).to.deep.equal([]);
    const morphs = await app.app.db.sql.all(app.app.db.sql.knex.from('files_related_morphs').where({ related_id: page, related_type: 'api::page.page' }));
    expect(morphs).to.deep.equal([]);
    expect(await count('files')).to.equal(2);
  });

  // No clock of its own (a busy machine made a 20 s bound fail on PostgreSQL): mocha's timeout bounds a hang. The
  // renumbering that was quadratic on SQLite (75 s for the 33,000 ids) is now one statement per batch.
  it('very long lists write: 14,000 repeatable components, 33,000 related ids (were 500s: too many SQL bindings)', async () => {
    const links = Array.from({ length: 14000 }, (_, n) => ({ label: `L${n}`, url: `/${n}` }));
    const page = await create(app, token, 'pages', { title: 'Many links', links });
    const read = await app.get(`/api/pages/${page}?fields[0]=title&populate[links]=*`, { token });
    expect(read.body.data.attributes.links).to.have.length(14000);
    expect(read.body.data.attributes.links[13999]).to.deep.include({ label: 'L13999', url: '/13999' });

    const connection = app.app.db.sql;
    // MySQL takes no ISO `T…Z` text for a datetime: bind a Date there (the driver writes it in UTC).
    const now = dialect === 'mysql' ? new Date() : new Date().toISOString();
    await app.app.db.transaction(async () => {
      for (let start = 0; start < 33000; start += 500) {
        const rows = Array.from({ length: 500 }, (_, n) => ({ name: `bulk ${start + n}`, created_at: dialect === 'sqlite' ? Date.now() : now, updated_at: dialect === 'sqlite' ? Date.now() : now }));
        await connection.run(connection.knex('tags').insert(rows));
      }
    });
    const ids = (await connection.all(connection.knex.from('tags').select('id').where('name', 'like', 'bulk %').orderBy('id'))).map((row) => Number(row.id));
    expect(ids).to.have.length(33000);
    const updated = await app.put(`/api/articles/${article}`, { data: { tags: ids } }, { token });
    expect(updated.status, updated.text.slice(0, 300)).to.equal(200);
    const stored = await joinRows(app, 'articles_tags_links', { article_id: article }, ['tag_id', 'tag_order']);
    expect(stored).to.have.length(33000);
    expect(stored[32999]).to.deep.equal({ tag_id: ids[32999], tag_order: 33000 });
  });
});

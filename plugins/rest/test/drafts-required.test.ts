/**
 * Strapi v4's draft & publish meaning of `required`: a draft may be saved
 * without its required values (work in progress); they are required when the
 * entry is created published, when an update publishes it, and on every
 * update of a published entry. Every other rule applies to drafts too, and
 * types without draft & publish require always.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

type Json = any;

eachDatabase('drafts without their required values', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  const post = (plural: string, data: Record<string, unknown>, query = '') => app.post(`/api/${plural}${query}`, { data }, { token });
  const put = (path: string, data: Record<string, unknown>) => app.put(path, { data }, { token });
  const issues = (body: Json) => body.error.details.errors.map((item: Json) => [item.path.join('.'), item.message]);
  const stored = async (plural: string, id: number) => {
    const response = await app.get(`/api/${plural}/${id}?publicationState=preview&populate=*`, { token });
    expect(response.status).to.equal(200);
    return response.body.data.attributes;
  };

  it('saves a draft without its required field, then refuses to publish it until the field is set', async () => {
    const created = await post('articles', { summary: 'work in progress', publishedAt: null }, '?fields[0]=title&fields[1]=summary&fields[2]=publishedAt');
    expect(created.status, created.text).to.equal(200);
    expect(created.body.data.attributes).to.deep.equal({ title: null, summary: 'work in progress', publishedAt: null });
    const id = created.body.data.id;

    const refused = await put(`/api/articles/${id}`, { publishedAt: '2024-05-01T10:00:00.000Z' });
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'title must be defined.', details: { errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }] } },
    });
    expect((await stored('articles', id)).publishedAt).to.equal(null);
    expect((await app.get(`/api/articles/${id}`)).status).to.equal(404);

    const edited = await put(`/api/articles/${id}`, { title: 'Finished' });
    expect(edited.status).to.equal(200);
    expect(edited.body.data.attributes.publishedAt).to.equal(null);

    const published = await put(`/api/articles/${id}`, { publishedAt: '2024-05-01T10:00:00.000Z' });
    expect(published.status, published.text).to.equal(200);
    expect(published.body.data.attributes).to.include({ title: 'Finished', publishedAt: '2024-05-01T10:00:00.000Z' });
    expect((await app.get(`/api/articles/${id}?fields[0]=title`)).body.data).to.deep.equal({ id, attributes: { title: 'Finished' } });
  });

  it('publishes in the same update that sets the missing field', async () => {
    const id = (await post('articles', { publishedAt: null })).body.data.id;
    const response = await put(`/api/articles/${id}`, { title: 'At once', publishedAt: '2024-06-01T00:00:00.000Z' });
    expect(response.status, response.text).to.equal(200);
    expect(response.body.data.attributes).to.include({ title: 'At once', publishedAt: '2024-06-01T00:00:00.000Z' });
  });

  it('a draft may clear a required value; a published entry may not; unpublishing may', async () => {
    const draft = (await post('articles', { title: 'Draft', publishedAt: null })).body.data.id;
    for (const title of [null, '']) {
      const response = await put(`/api/articles/${draft}`, { title });
      expect(response.status, response.text).to.equal(200);
      expect(response.body.data.attributes.title).to.equal(title);
    }
    const live = (await post('articles', { title: 'Live' })).body.data.id;
    for (const title of [null, '']) {
      const response = await put(`/api/articles/${live}`, { title });
      expect(response.status, JSON.stringify(title)).to.equal(400);
      expect(issues(response.body)).to.deep.equal([['title', 'title must be defined.']]);
    }
    expect((await stored('articles', live)).title).to.equal('Live');
    const unpublished = await put(`/api/articles/${live}`, { title: null, publishedAt: null });
    expect(unpublished.status, unpublished.text).to.equal(200);
    expect(unpublished.body.data.attributes).to.include({ title: null, publishedAt: null });
  });

  it('creating published (the default, or with publishedAt) requires the field', async () => {
    for (const data of [{ summary: 'x' }, { summary: 'x', publishedAt: '2024-01-01T00:00:00.000Z' }, { title: null }]) {
      const response = await post('articles', data);
      expect(response.status, JSON.stringify(data)).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
      expect(issues(response.body), JSON.stringify(data)).to.deep.equal([['title', 'title must be defined.']]);
    }
  });

  it('every other rule applies to drafts', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ views: 'many' }, 'views'],
      [{ title: 'x'.repeat(300) }, 'title'],
      [{ status: 'nope' }, 'status'],
      [{ publishDate: '2024-02-30' }, 'publishDate'],
      [{ nope: 1 }, 'nope'],
    ];
    for (const [data, field] of cases) {
      const response = await post('articles', { ...data, publishedAt: null });
      expect(response.status, field).to.equal(400);
      expect(issues(response.body).map(([path]: string[]) => path), field).to.deep.equal([field]);
    }
  });

  it('components of a draft may lack required values too, until it is published', async () => {
    const created = await post('pages', { title: 'Landing', links: [{ label: 'Docs' }], publishedAt: null });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.data.id;
    expect((await stored('pages', id)).links.map((link: Json) => link.url)).to.deep.equal([null]);

    const refused = await put(`/api/pages/${id}`, { publishedAt: '2024-05-01T10:00:00.000Z' });
    expect(refused.status).to.equal(400);
    expect(issues(refused.body)).to.deep.equal([['links.0.url', 'url must be defined.']]);

    const published = await put(`/api/pages/${id}`, { links: [{ label: 'Docs', url: '/docs' }], publishedAt: '2024-05-01T10:00:00.000Z' });
    expect(published.status, published.text).to.equal(200);
    const broken = await put(`/api/pages/${id}`, { links: [{ label: 'Docs' }] });
    expect(broken.status).to.equal(400);
    expect(issues(broken.body)).to.deep.equal([['links.0.url', 'url must be defined.']]);

    const publishedAtOnce = await post('pages', { title: 'Now', links: [{ label: 'Docs' }] });
    expect(publishedAtOnce.status).to.equal(400);
    expect(issues(publishedAtOnce.body)).to.deep.equal([['links.0.url', 'url must be defined.']]);
  });

  it('types without draft & publish require always', async () => {
    const response = await post('categories', {});
    expect(response.status).to.equal(400);
    expect(issues(response.body)).to.deep.equal([['name', 'name must be defined.']]);
    const id = (await post('categories', { name: 'C' })).body.data.id;
    const cleared = await put(`/api/categories/${id}`, { name: null });
    expect(cleared.status).to.equal(400);
    expect(issues(cleared.body)).to.deep.equal([['name', 'name must be defined.']]);
  });
});

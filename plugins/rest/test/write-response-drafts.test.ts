import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * A write answers with the entry it wrote, draft or not, but its populated
 * relations keep the request's publication state: no drafts under `live`.
 */
eachDatabase('write responses and drafts', (dialect) => {
  let app: TestApp;
  let token: string;
  let published: number;
  let draft: number;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    published = (await app.post('/api/articles', { data: { title: 'Published' } }, { token })).body.data.id;
    draft = (await app.post('/api/articles', { data: { title: 'Draft', publishedAt: null } }, { token })).body.data.id;
  });
  after(() => app?.stop());

  const titles = (body: { data: { attributes: { featuredArticles: { data: Array<{ attributes: { title: string } }> } } } }) =>
    body.data.attributes.featuredArticles.data.map((entry) => entry.attributes.title);

  it('leaves related drafts out of a write response under live', async () => {
    const response = await app.put('/api/homepage?populate[featuredArticles][fields][0]=title', { data: { title: 'Home', featuredArticles: [draft, published] } }, { token });
    expect(response.status).to.equal(200);
    expect(titles(response.body)).to.deep.equal(['Published']);
  });

  it('shows them when the request previews', async () => {
    const response = await app.put('/api/homepage?publicationState=preview&populate[featuredArticles][fields][0]=title', { data: { title: 'Home' } }, { token });
    expect(response.status).to.equal(200);
    expect(titles(response.body)).to.deep.equal(['Draft', 'Published']);
  });

  it('answers a created draft with the draft itself', async () => {
    const response = await app.post('/api/articles?fields[0]=title&fields[1]=publishedAt', { data: { title: 'Another draft', publishedAt: null } }, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data.attributes).to.deep.equal({ title: 'Another draft', publishedAt: null });
  });

  it('deletes a draft and answers with it', async () => {
    const response = await app.delete(`/api/articles/${draft}?fields[0]=title`, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ id: draft, attributes: { title: 'Draft' } });
  });
});

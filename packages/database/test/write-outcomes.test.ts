/**
 * Every write reports what it did: under concurrency a delete, an update or
 * a single type's DELETE that found no row is a 404 decided inside its own
 * transaction (never by an earlier read), a relation write whose target was
 * deleted meanwhile is a 400 naming the id, and after-hooks fire only for
 * writes that happened.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { create } from './relations-helpers';

eachDatabase('writes report what they did', (dialect) => {
  let app: TestApp;
  let token: string;
  const fired = { afterUpdate: 0, afterDelete: 0 };

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    app.app.db.lifecycles.subscribe({
      models: ['api::article.article'],
      afterUpdate() {
        fired.afterUpdate++;
      },
      afterDelete() {
        fired.afterDelete++;
      },
    });
  });
  after(() => app.stop());
  beforeEach(() => {
    fired.afterUpdate = 0;
    fired.afterDelete = 0;
  });

  const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status).sort();

  it('five concurrent deletes of one entry: one 200 with the entry, four 404s, one afterDelete', async () => {
    const id = await create(app, token, 'articles', { title: 'Once' });
    const responses = await Promise.all([1, 2, 3, 4, 5].map(() => app.delete(`/api/articles/${id}`, { token })));
    expect(statuses(responses)).to.deep.equal([200, 404, 404, 404, 404]);
    const deleted = responses.find((response) => response.status === 200)!;
    expect(deleted.body.data).to.include({ id });
    expect(deleted.body.data.attributes.title).to.equal('Once');
    for (const response of responses.filter((candidate) => candidate.status === 404)) {
      expect(response.body).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    }
    expect(fired.afterDelete).to.equal(1);
    expect((await app.get(`/api/articles/${id}`, { token })).status).to.equal(404);
  });

  it('updates racing a delete: each update is a 200 (it ran first) or a 404, afterUpdate fires for the 200s only', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await create(app, token, 'articles', { title: `Race ${round}` });
      fired.afterUpdate = 0;
      const responses = await Promise.all([
        ...[0, 1, 2, 3].map((n) => app.put(`/api/articles/${id}`, { data: { title: `U${n}` } }, { token })),
        app.delete(`/api/articles/${id}`, { token }),
      ]);
      const updates = responses.slice(0, 4);
      expect(responses[4].status).to.equal(200);
      expect(updates.map((response) => response.status).every((status) => status === 200 || status === 404)).to.equal(true);
      const applied = updates.filter((response) => response.status === 200);
      expect(fired.afterUpdate).to.equal(applied.length);
      // The delete answers the entry as it was last written: by one of the updates that succeeded, or as created.
      const titles = applied.map((response) => response.body.data.attributes.title);
      expect([`Race ${round}`, ...titles]).to.include(responses[4].body.data.attributes.title);
    }
  });

  it('five concurrent DELETEs of the single type: one 200, four 404s', async () => {
    expect((await app.put('/api/homepage', { data: { title: 'Home' } }, { token })).status).to.equal(200);
    const responses = await Promise.all([1, 2, 3, 4, 5].map(() => app.delete('/api/homepage', { token })));
    expect(statuses(responses)).to.deep.equal([200, 404, 404, 404, 404]);
    expect(responses.find((response) => response.status === 200)!.body.data.attributes.title).to.equal('Home');
    expect((await app.get('/api/homepage', { token })).status).to.equal(404);
  });

  it('a PUT and a DELETE of the single type answer as if one ran after the other', async () => {
    for (let round = 0; round < 4; round++) {
      expect((await app.put('/api/homepage', { data: { title: `Before ${round}` } }, { token })).status).to.equal(200);
      const [put, removed] = await Promise.all([app.put('/api/homepage', { data: { title: `After ${round}` } }, { token }), app.delete('/api/homepage', { token })]);
      expect(put.status).to.equal(200);
      expect(removed.status).to.equal(200);
      const now = await app.get('/api/homepage', { token });
      if (now.status === 200) {
        // DELETE first, then PUT created a new entry.
        expect(removed.body.data.attributes.title).to.equal(`Before ${round}`);
        expect(now.body.data.id).to.equal(put.body.data.id).and.not.equal(removed.body.data.id);
      } else {
        // PUT first, then DELETE removed what it wrote.
        expect(now.status).to.equal(404);
        expect(removed.body.data).to.deep.include({ id: put.body.data.id });
        expect(removed.body.data.attributes.title).to.equal(`After ${round}`);
      }
    }
    await app.delete('/api/homepage', { token });
  });

  it('relation writes racing a delete of their target: 200 (ran first) or a 400 naming the id, never a 500', async () => {
    const article = await create(app, token, 'articles', { title: 'Holder' });
    for (let round = 0; round < 4; round++) {
      const tag = await create(app, token, 'tags', { name: `Gone ${round}` });
      const target = await create(app, token, 'articles', { title: `Target ${round}` });
      const [tagged, featured, tagDeleted, targetDeleted] = await Promise.all([
        app.put(`/api/articles/${article}`, { data: { tags: { connect: [tag] } } }, { token }),
        app.put('/api/homepage', { data: { title: 'Home', featuredArticles: [target] } }, { token }),
        app.delete(`/api/tags/${tag}`, { token }),
        app.delete(`/api/articles/${target}`, { token }),
      ]);
      expect([tagDeleted.status, targetDeleted.status]).to.deep.equal([200, 200]);
      expect([200, 400], tagged.text).to.include(tagged.status);
      expect([200, 400], featured.text).to.include(featured.status);
      if (tagged.status === 400) expect(tagged.body.error.message).to.equal(`tags: api::tag.tag with id ${tag} does not exist`);
      if (featured.status === 400) expect(featured.body.error.message).to.equal(`featuredArticles: api::article.article with id ${target} does not exist`);
      // Whichever ran first, the deleted entries are linked from nowhere now.
      const holder = await app.get(`/api/articles/${article}?populate[tags][fields][0]=id`, { token });
      expect(holder.body.data.attributes.tags.data).to.deep.equal([]);
      const home = await app.get('/api/homepage?populate[featuredArticles][fields][0]=id', { token });
      if (home.status === 200) expect(home.body.data.attributes.featuredArticles.data).to.deep.equal([]);
    }
  });
});

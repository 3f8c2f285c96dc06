import { expect } from 'chai';
import type { ContentEvent, Plugin } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const FILES = {
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string', required: true, unique: true }, secret: { type: 'string', private: true } },
  },
};

/** Content events fire once per committed write, after commit, never for a rolled-back one. */
eachDatabase('content events', (dialect) => {
  let app: TestApp;
  let token: string;
  const events: ContentEvent[] = [];
  const recorder: Plugin = {
    name: 'recorder',
    register({ app }) {
      for (const name of ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish'] as const) {
        app.hooks.on(name, (event) => void events.push(event));
      }
    },
  };
  before(async () => {
    app = await startApp({ dialect, files: FILES, plugins: [restPlugin, recorder] });
    token = await app.fullAccessToken();
  });
  beforeEach(() => {
    events.length = 0;
  });
  after(() => app?.stop());

  it('announces a REST create once, without private fields', async () => {
    const created = await app.post('/api/posts', { data: { title: 'One', secret: 'hidden' } }, { token });
    expect(created.status).to.equal(200);
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ event: 'entry.create', uid: 'api::post.post', model: 'post' });
    expect(events[0].entry).to.include({ id: created.body.data.id, title: 'One' });
    expect(events[0].entry).to.not.have.property('secret');
  });

  it('announces nothing for a write that failed validation or a unique check', async () => {
    expect((await app.post('/api/posts', { data: { secret: 'no title' } }, { token })).status).to.equal(400);
    expect((await app.post('/api/posts', { data: { title: 'One' } }, { token })).status).to.equal(400);
    expect(events).to.deep.equal([]);
  });

  it('announces nothing when the surrounding transaction rolls back, and once after it commits', async () => {
    const failed = app.app.db.transaction(async () => {
      await app.app.entityService.create('api::post.post', { data: { title: 'Rolled back' } });
      expect(events, 'not before commit').to.deep.equal([]);
      throw new Error('abort');
    });
    const error = await failed.then(() => null, (reason: Error) => reason);
    expect(error?.message).to.equal('abort');
    expect(events).to.deep.equal([]);
    expect(await app.app.entityService.count('api::post.post', { filters: { title: 'Rolled back' } })).to.equal(0);

    await app.app.db.transaction(async () => {
      await app.app.entityService.create('api::post.post', { data: { title: 'Two' } });
      await app.app.entityService.create('api::post.post', { data: { title: 'Three', publishedAt: null } });
      expect(events, 'not before commit').to.deep.equal([]);
    });
    expect(events.map((event) => [event.event, event.entry.title])).to.deep.equal([
      ['entry.create', 'Two'],
      ['entry.create', 'Three'],
    ]);
  });

  it('names publish, unpublish, update and delete', async () => {
    const draft = await app.post('/api/posts', { data: { title: 'Draft', publishedAt: null } }, { token });
    const id = draft.body.data.id;
    await app.put(`/api/posts/${id}`, { data: { publishedAt: '2024-01-01T00:00:00.000Z' } }, { token });
    await app.put(`/api/posts/${id}`, { data: { title: 'Draft 2' } }, { token });
    await app.put(`/api/posts/${id}`, { data: { publishedAt: null } }, { token });
    await app.delete(`/api/posts/${id}`, { token });
    expect((await app.put(`/api/posts/${id}`, { data: { title: 'gone' } }, { token })).status).to.equal(404);
    expect(events.map((event) => event.event)).to.deep.equal(['entry.create', 'entry.publish', 'entry.update', 'entry.unpublish', 'entry.delete']);
    expect(events.every((event) => event.entry.id === id)).to.equal(true);
  });
});

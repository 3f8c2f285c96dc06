/**
 * Database lifecycles: hooks from `lifecycles.ts` beside a schema and from
 * `db.lifecycles.subscribe()` run around every query in order; a `before*`
 * hook can change the data; any throwing hook rolls the whole write back.
 * A write's answer passes through the findOne hooks, between its own before
 * and after hooks, as Strapi 4.26.2's query engine reads it back.
 */
import { expect } from 'chai';
import { ApplicationError, ValidationError, type LifecycleEvent } from '@tessera/core';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { rowCount } from './catalog';

const POST_UID = 'api::post.post';

function schema(singular: string, plural: string, attributes: Record<string, unknown>): object {
  return {
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
  };
}

/** The file hooks record `file:<action>` into a global list and upper-case "shout:" titles. */
const LIFECYCLES_FILE = `
const record = (event) => ((globalThis as any).__tesseraLifecycleEvents ??= []).push('file:' + event.action);
export default {
  beforeCreate(event) {
    record(event);
    event.state.startedBy = 'file';
    const data = event.params.data;
    if (typeof data.title === 'string' && data.title.startsWith('shout:')) data.title = data.title.slice(6).toUpperCase();
  },
  afterCreate(event) { record(event); },
  beforeUpdate(event) { record(event); },
  afterUpdate(event) { record(event); },
  beforeDelete(event) { record(event); },
  afterDelete(event) { record(event); },
  beforeFindMany(event) { record(event); },
  afterFindMany(event) { record(event); },
  beforeFindOne(event) { record(event); },
  afterFindOne(event) { record(event); },
};
`;

type Events = string[];

/** A write reads its entry back (a delete: reads it first) through the findOne hooks, as Strapi's query engine does. */
const READ_BACK = ['file:beforeFindOne', 'sub:beforeFindOne', 'file:afterFindOne', 'sub:afterFindOne'];

eachDatabase('database lifecycles', (dialect) => {
  let app: TestApp;
  let token: string;
  let events: Events;
  let seen: LifecycleEvent[];
  /** Failure asked for operations without data (delete, reads). */
  let failNext: string | undefined;
  const globals = globalThis as { __tesseraLifecycleEvents?: Events };

  before(async () => {
    events = [];
    globals.__tesseraLifecycleEvents = events;
    app = await startApp({
      dialect,
      files: {
        'src/api/post/content-types/post/schema.json': schema('post', 'posts', { title: { type: 'string', required: true }, body: { type: 'text' } }),
        'src/api/post/content-types/post/lifecycles.ts': LIFECYCLES_FILE,
        'src/api/audit/content-types/audit/schema.json': schema('audit', 'audits', { message: { type: 'string' } }),
      },
    });
    token = await app.fullAccessToken();
    const actions = ['Create', 'Update', 'Delete', 'FindMany', 'FindOne'];
    const handlers: Record<string, (event: LifecycleEvent) => Promise<void>> = {};
    for (const action of actions) {
      for (const phase of ['before', 'after']) {
        handlers[`${phase}${action}`] = async (event) => {
          events.push(`sub:${event.action}`);
          if (phase === 'before') event.state.subscriberBefore = event.action;
          seen.push(event);
          await failIfAsked(event);
        };
      }
    }
    app.app.db.lifecycles.subscribe({ models: [POST_UID], ...handlers });
  });
  beforeEach(() => {
    events.length = 0;
    seen = [];
  });
  after(async () => {
    await app.stop();
    delete globals.__tesseraLifecycleEvents;
  });

  /** Titles ask the subscriber to misbehave: `fail:<action>:<kind>`. */
  async function failIfAsked(event: LifecycleEvent): Promise<void> {
    const data = (event.params as { data?: Record<string, unknown> }).data;
    const wanted = typeof data?.title === 'string' ? data.title : failNext;
    const match = /^fail:(\w+):(\w+)$/.exec(wanted ?? '');
    if (!match || match[1] !== event.action) return;
    if (event.action.startsWith('after')) {
      // A write the hook makes runs in the same transaction: it must vanish with the rollback.
      await app.app.entityService.create('api::audit.audit', { data: { message: `audit for ${wanted}` } });
    }
    if (match[2] === 'validation') throw new ValidationError('This title is refused');
    if (match[2] === 'application') throw new ApplicationError('Refused by the application');
    throw new Error('secret internal detail');
  }

  const counts = async () => ({ posts: await rowCount(app.app.db.sql, 'posts'), audits: await rowCount(app.app.db.sql, 'audits') });

  async function createPost(title: string, body = 'text'): Promise<number> {
    const response = await app.post('/api/posts', { data: { title, body } }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.data.id;
  }

  it('runs create hooks in order, file hooks before subscribers, before → after', async () => {
    const id = await createPost('ordered');
    expect(events).to.deep.equal(['file:beforeCreate', 'sub:beforeCreate', ...READ_BACK, 'file:afterCreate', 'sub:afterCreate']);
    const afterEvent = seen.find((event) => event.action === 'afterCreate')!;
    // Strapi's model: uid, names, table and attributes (with id and the timestamps it adds).
    expect(afterEvent.model).to.deep.include({ uid: POST_UID, singularName: 'post', tableName: 'posts', kind: 'collectionType' });
    expect(Object.keys(afterEvent.model.attributes)).to.deep.equal(['id', 'title', 'body', 'createdAt', 'updatedAt']);
    expect(afterEvent.model.attributes.title).to.deep.equal({ type: 'string', required: true });
    expect((afterEvent.result as { id: number }).id).to.equal(id);
    // Each subscriber's before and after of one operation share a state of their own, as in Strapi.
    expect(afterEvent.state).to.deep.equal({ subscriberBefore: 'beforeCreate' });
    // The read-back: Strapi's findOne parameters for the written id, and the entry the write answers.
    const readBack = seen.find((event) => event.action === 'afterFindOne')!;
    expect(readBack.params.where).to.deep.equal({ id });
    expect(readBack.result).to.equal(afterEvent.result);
  });

  it('runs update, delete, findOne and findMany hooks in order', async () => {
    const id = await createPost('to change');
    events.length = 0;
    expect((await app.put(`/api/posts/${id}`, { data: { body: 'changed' } }, { token })).status).to.equal(200);
    expect(events).to.deep.equal(['file:beforeUpdate', 'sub:beforeUpdate', ...READ_BACK, 'file:afterUpdate', 'sub:afterUpdate']);
    events.length = 0;
    expect((await app.get(`/api/posts/${id}`, { token })).status).to.equal(200);
    expect(events).to.deep.equal(['file:beforeFindOne', 'sub:beforeFindOne', 'file:afterFindOne', 'sub:afterFindOne']);
    events.length = 0;
    expect((await app.get('/api/posts?pagination[withCount]=false', { token })).status).to.equal(200);
    expect(events).to.deep.equal(['file:beforeFindMany', 'sub:beforeFindMany', 'file:afterFindMany', 'sub:afterFindMany']);
    events.length = 0;
    expect((await app.delete(`/api/posts/${id}`, { token })).status).to.equal(200);
    expect(events).to.deep.equal(['file:beforeDelete', 'sub:beforeDelete', ...READ_BACK, 'file:afterDelete', 'sub:afterDelete']);
  });

  it('lets beforeCreate change the data that is written', async () => {
    const response = await app.post('/api/posts', { data: { title: 'shout:quiet words' } }, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data.attributes.title).to.equal('QUIET WORDS');
    const [row] = await app.app.db.sql.raw('SELECT title FROM posts WHERE id = ?', [response.body.data.id]);
    expect(row.title).to.equal('QUIET WORDS');
  });

  it('a throwing beforeCreate writes nothing; a catalogue error keeps its status', async () => {
    const before = await counts();
    const response = await app.post('/api/posts', { data: { title: 'fail:beforeCreate:validation' } }, { token });
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal({ data: null, error: { status: 400, name: 'ValidationError', message: 'This title is refused', details: {} } });
    expect(events).to.deep.equal(['file:beforeCreate', 'sub:beforeCreate']);
    expect(await counts()).to.deep.equal(before);
  });

  it('any other error from a hook is a 500 without internals', async () => {
    const before = await counts();
    const response = await app.post('/api/posts', { data: { title: 'fail:beforeCreate:plain' } }, { token });
    expect(response.status).to.equal(500);
    expect(response.body).to.deep.equal({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
    expect(response.text).to.not.contain('secret internal detail');
    expect(await counts()).to.deep.equal(before);
  });

  it('a throwing afterCreate rolls back the row and every write its hooks made', async () => {
    const before = await counts();
    const response = await app.post('/api/posts', { data: { title: 'fail:afterCreate:application' } }, { token });
    expect(response.status).to.equal(400);
    expect(response.body.error).to.deep.equal({ status: 400, name: 'ApplicationError', message: 'Refused by the application', details: {} });
    expect(await counts()).to.deep.equal(before);
  });

  it('a throwing beforeUpdate or afterUpdate leaves the row unchanged', async () => {
    const id = await createPost('stable', 'original body');
    for (const title of ['fail:beforeUpdate:plain', 'fail:afterUpdate:validation']) {
      const before = await counts();
      const response = await app.put(`/api/posts/${id}`, { data: { title, body: 'new body' } }, { token });
      expect(response.status, title).to.equal(title.endsWith('plain') ? 500 : 400);
      expect(await counts()).to.deep.equal(before);
      const [row] = await app.app.db.sql.raw('SELECT title, body FROM posts WHERE id = ?', [id]);
      expect(row, title).to.deep.equal({ title: 'stable', body: 'original body' });
    }
  });

  it('a throwing beforeDelete or afterDelete keeps the entry', async () => {
    const id = await createPost('survivor');
    try {
      for (const failure of ['fail:beforeDelete:plain', 'fail:afterDelete:plain']) {
        failNext = failure;
        const before = await counts();
        const response = await app.delete(`/api/posts/${id}`, { token });
        expect(response.status, failure).to.equal(500);
        expect(await counts(), failure).to.deep.equal(before);
        failNext = undefined;
        expect((await app.get(`/api/posts/${id}`, { token })).status, failure).to.equal(200);
      }
    } finally {
      failNext = undefined;
    }
  });

  it('hooks fire for entity service calls too, and only for their models', async () => {
    await app.app.entityService.create(POST_UID, { data: { title: 'from the service' } });
    await app.app.entityService.create('api::audit.audit', { data: { message: 'not a post' } });
    expect(events).to.deep.equal(['file:beforeCreate', 'sub:beforeCreate', ...READ_BACK, 'file:afterCreate', 'sub:afterCreate']);
  });
});

/**
 * Lifecycle events in Strapi's shape: `event.params` holds Strapi's query-engine
 * parameters (`where`, `select`, `orderBy`, `populate`, `limit`, `offset`,
 * `data`), whatever path the query came by (REST, the entity service,
 * `db.query`); the function form of `db.lifecycles.subscribe` hears every event;
 * and what a `before*` hook changes in `populate` or `where` is what runs —
 * still under the caller's permissions.
 */
import { expect } from 'chai';
import type { LifecycleEvent } from '@tessera/core';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const POST = 'api::post.post';

const files = {
  'config/permissions.ts': `export default { public: ['api::post.post.find', 'api::post.post.findOne'] };`,
  'src/components/shared/seo.json': { collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' } } },
  'src/api/author/content-types/author/schema.json': {
    kind: 'collectionType',
    collectionName: 'authors',
    info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, posts: { type: 'relation', relation: 'oneToMany', target: POST, mappedBy: 'author' } },
  },
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'posts' },
      seo: { type: 'component', component: 'shared.seo' },
    },
  },
};

eachDatabase('lifecycle events in Strapi shape', (dialect) => {
  let app: TestApp;
  let token: string;
  let events: LifecycleEvent[];
  let unsubscribe: () => void;
  let authorId: number;

  before(async () => {
    app = await startApp({ dialect, files });
    token = await app.fullAccessToken();
    const author = await app.app.entityService.create('api::author.author', { data: { name: 'Ada' } });
    authorId = author.id;
    for (const title of ['first', 'second', 'hidden']) {
      await app.app.entityService.create(POST, { data: { title, author: authorId, seo: { metaTitle: `seo ${title}` } } });
    }
    // Strapi's function form: every action of every model.
    unsubscribe = app.app.db.lifecycles.subscribe((event) => {
      events.push(event);
      if (event.model.uid === POST && event.action === 'beforeCreate' && (event.params as { data: { title?: string } }).data.title === 'answer with author') {
        (event.params as { populate?: unknown }).populate = ['author'];
      }
      if (event.model.uid !== POST || !event.action.startsWith('beforeFind')) return;
      const params = event.params as { populate?: unknown; where?: Record<string, unknown> };
      // strapi-plugin-populate-deep's move: `populate=deep` becomes a whole populate tree.
      if (Array.isArray(params.populate) && params.populate[0] === 'deep') params.populate = { author: true, seo: { populate: '*' } };
      if (Array.isArray(params.populate) && params.populate[0] === 'visible') {
        params.populate = undefined;
        params.where = { $and: [params.where ?? {}, { title: { $ne: 'hidden' } }] };
      }
    });
  });
  beforeEach(() => {
    events = [];
  });
  after(async () => {
    unsubscribe();
    await app.stop();
  });

  const beforeEvent = (action: string) => events.find((event) => event.action === action && event.model.uid === POST)!;

  it("shows a REST list's parameters as Strapi's query engine has them", async () => {
    const response = await app.get('/api/posts?filters[title][$eq]=first&fields=title&sort=title:desc&populate=author&pagination[pageSize]=5', { token });
    expect(response.status).to.equal(200);
    expect(beforeEvent('beforeFindMany').params).to.deep.equal({
      where: { title: { $eq: 'first' } },
      select: ['id', 'title'],
      orderBy: [{ title: 'desc' }],
      populate: ['author'],
      limit: 5,
      offset: 0,
    });
    expect(beforeEvent('beforeFindMany').model).to.deep.include({ uid: POST, singularName: 'post', tableName: 'posts' });
    const after = events.find((event) => event.action === 'afterFindMany' && event.model.uid === POST)!;
    expect((after.result as Array<{ title: string }>).map((entry) => entry.title)).to.deep.equal(['first']);
    expect(events.some((event) => event.action === 'beforeCount' && event.model.uid === POST)).to.equal(true);
  });

  it('shows findOne, update and delete with where.id, and a write with its data', async () => {
    const created = await app.post('/api/posts', { data: { title: 'shape' } }, { token });
    const id = created.body.data.id;
    expect((beforeEvent('beforeCreate').params as { data: Record<string, unknown> }).data.title).to.equal('shape');
    events = [];
    await app.get(`/api/posts/${id}?populate[author][fields][0]=name`, { token });
    expect(beforeEvent('beforeFindOne').params).to.deep.equal({ where: { id }, populate: { author: { select: ['id', 'name'] } } });
    events = [];
    await app.put(`/api/posts/${id}?populate=author&fields=title`, { data: { title: 'shape 2' } }, { token });
    const update = beforeEvent('beforeUpdate').params as { where: unknown; data: Record<string, unknown> };
    expect(update).to.deep.include({ where: { id }, select: ['id', 'title'], populate: ['author'] });
    expect(update.data.title).to.equal('shape 2');
    events = [];
    expect((await app.delete(`/api/posts/${id}`, { token })).status).to.equal(200);
    expect(beforeEvent('beforeDelete').params).to.deep.equal({ where: { id } });
    expect(events.map((event) => event.action)).to.include.members(['beforeDelete', 'afterDelete']);
  });

  it('runs the populate a beforeFind hook put in place of populate=deep, on lists and single entries', async () => {
    const list = await app.get('/api/posts?populate=deep&sort=id', { token });
    expect(list.status).to.equal(200);
    const [first] = list.body.data;
    expect(first.attributes.author.data).to.deep.include({ id: authorId });
    expect(first.attributes.author.data.attributes.name).to.equal('Ada');
    expect(first.attributes.seo).to.deep.include({ metaTitle: 'seo first' });
    const one = await app.get(`/api/posts/${first.id}?populate=deep`, { token });
    expect(one.body.data.attributes.author.data.attributes.name).to.equal('Ada');
    expect(one.body.data.attributes.seo.metaTitle).to.equal('seo first');
  });

  it("answers a write with the populate its hook asked for, under the caller's permissions", async () => {
    const created = await app.post('/api/posts', { data: { title: 'answer with author', author: authorId } }, { token });
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes.author.data.attributes.name).to.equal('Ada');
    await app.app.db.query(POST).delete({ where: { id: created.body.data.id } });
  });

  it('runs the where a hook changed', async () => {
    const response = await app.get('/api/posts?populate=visible&sort=id', { token });
    expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['first', 'second']);
  });

  it("compiles a hook's populate under the caller's permissions: the public caller may not read authors", async () => {
    const response = await app.get('/api/posts?populate=deep&sort=id');
    expect(response.status).to.equal(200);
    expect(response.body.data[0].attributes).to.not.have.property('author');
    expect(response.body.data[0].attributes.seo.metaTitle).to.equal('seo first');
  });

  it('shows entity service and db.query calls in the same shape, and honours their hooks too', async () => {
    const viaService = (await app.app.entityService.findMany(POST, { filters: { title: 'second' }, populate: 'deep' })) as Array<Record<string, any>>;
    expect(beforeEvent('beforeFindMany').params).to.deep.include({ where: { title: 'second' } });
    expect(viaService[0].author.name).to.equal('Ada');
    events = [];
    const viaQuery = await app.app.db.query(POST).findMany({ where: { title: 'first' }, populate: ['deep'] });
    expect(beforeEvent('beforeFindMany').params).to.deep.include({ where: { title: 'first' } });
    expect((viaQuery[0] as Record<string, any>).author.name).to.equal('Ada');
  });
});

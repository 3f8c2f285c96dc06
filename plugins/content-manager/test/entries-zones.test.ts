/**
 * Components and dynamic zones with relations inside them (a shape the peer fixture lacks, so asserted on
 * Tessera alone, by Strapi's rules): the panel's zone body written through the entity service, relations inside
 * zone items answered as `{ count }`, draft-relation counts through zones, the relation pickers of a component's
 * relation (`:model` a component uid, `entityId` a component id), and auto-clone's refusal naming a zone path with
 * the component's display name.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { normalise, registerFirstAdmin, startEntriesApp } from './entries-fixture';

const LANDING = {
  kind: 'collectionType',
  collectionName: 'landings',
  info: { singularName: 'landing', pluralName: 'landings', displayName: 'Landing' },
  options: { draftAndPublish: true },
  attributes: {
    name: { type: 'string' },
    blocks: { type: 'dynamiczone', components: ['blocks.hero', 'blocks.picks'] },
  },
};
const HERO = {
  collectionName: 'components_blocks_heroes',
  info: { displayName: 'Hero' },
  attributes: { heading: { type: 'string' }, code: { type: 'uid' }, article: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' } },
};
const PICKS = {
  collectionName: 'components_blocks_picks',
  info: { displayName: 'Picks' },
  attributes: { articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' } },
};

const L = '/content-manager/collection-types/api::landing.landing';
const end = (id: number) => ({ id, position: { end: true } });

eachDatabase('content manager entries: components and dynamic zones', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startEntriesApp(dialect, {
      files: { 'src/api/landing/content-types/landing/schema.json': LANDING, 'src/components/blocks/hero.json': HERO, 'src/components/blocks/picks.json': PICKS },
    });
    token = await registerFirstAdmin(app);
    for (const title of ['One', 'Two', 'Three']) {
      expect((await app.post('/content-manager/collection-types/api::article.article', { title, slug: title.toLowerCase() }, { token })).status).to.equal(200);
    }
    expect((await app.post('/content-manager/collection-types/api::article.article/3/actions/publish', {}, { token })).status).to.equal(200);
  });
  after(() => app?.stop());

  it('writes a zone as the panel sends it and answers its relations as counts', async () => {
    const created = await app.post(L, {
      name: 'Home',
      blocks: [
        // The panel keys each block of its form with __temp_key__ and sends it: Strapi writes attributes only.
        { __component: 'blocks.hero', __temp_key__: 0, heading: 'Welcome', code: 'welcome', article: { connect: [end(1)] } },
        { __component: 'blocks.picks', __temp_key__: 1, articles: { connect: [end(2), end(3)] } },
      ],
    }, { token });
    expect(created.status, created.text).to.equal(200);
    const found = await app.get(`${L}/${created.body.id}`, { token });
    expect(normalise(found.body.blocks)).to.deep.equal([
      { id: 1, __component: 'blocks.hero', heading: 'Welcome', code: 'welcome', article: { count: 1 } },
      { id: 1, __component: 'blocks.picks', articles: { count: 2 } },
    ]);
    const list = await app.get(`${L}?page=1&pageSize=10`, { token });
    expect(list.body.results.map((entry: { blocks: unknown[] }) => entry.blocks.length)).to.deep.equal([2]);
  });

  it("refuses __temp_key__ in a block through the content API, as Strapi 4.26's input validation does", async () => {
    const refused = await app.post('/api/landings', { data: { name: 'Typed by hand', blocks: [{ __component: 'blocks.hero', __temp_key__: 0, heading: 'Hi' }] } }, { token: await app.fullAccessToken() });
    expect([refused.status, refused.body.error.details.errors]).to.deep.equal([400, [{ path: ['blocks', '0', '__temp_key__'], message: 'Invalid key __temp_key__', name: 'ValidationError' }]]);
    expect((await app.get(`${L}?page=1&pageSize=10`, { token })).body.pagination.total).to.equal(1);
  });

  it('counts the drafts linked through the zone (article 3 is published)', async () => {
    const count = await app.get(`${L}/1/actions/countDraftRelations`, { token });
    expect(count.body).to.deep.equal({ data: 2 });
  });

  it("serves a component relation's pickers", async () => {
    const existing = await app.get('/content-manager/relations/blocks.picks/1/articles?page=1&pageSize=5', { token });
    expect(normalise(existing.body)).to.deep.equal({
      results: [{ id: 3, title: 'Three', publishedAt: '<timestamp>' }, { id: 2, title: 'Two', publishedAt: null }],
      pagination: { page: 1, pageSize: 5, pageCount: 1, total: 2 },
    });
    const available = await app.get('/content-manager/relations/blocks.picks/articles?page=1&pageSize=10&entityId=1', { token });
    expect(available.body).to.deep.equal({ results: [{ id: 1, title: 'One', publishedAt: null }], pagination: { page: 1, pageSize: 10, pageCount: 1, total: 1 } });
    const missing = await app.get('/content-manager/relations/blocks.picks/99/articles?page=1&pageSize=5', { token });
    expect(missing.status).to.equal(404);
  });

  it('clones with the body the panel sends (the zone as edited: a new uid, relations to connect)', async () => {
    const cloned = await app.post(`${L}/clone/1`, {
      name: 'Copy',
      blocks: [
        { id: 1, __component: 'blocks.hero', heading: 'Welcome', code: 'welcome-copy', article: { connect: [end(1)] } },
        { id: 1, __component: 'blocks.picks', articles: { connect: [end(2), end(3)] } },
      ],
    }, { token });
    expect(cloned.status, cloned.text).to.equal(200);
    expect(normalise({ name: cloned.body.name, publishedAt: cloned.body.publishedAt, blocks: cloned.body.blocks.map(({ id: _id, ...item }: { id: number }) => item) })).to.deep.equal({
      name: 'Copy',
      publishedAt: null,
      blocks: [
        { __component: 'blocks.hero', heading: 'Welcome', code: 'welcome-copy', article: { count: 1 } },
        { __component: 'blocks.picks', articles: { count: 2 } },
      ],
    });
    expect((await app.get(`${L}/1`, { token })).body.blocks[1].articles).to.deep.equal({ count: 2 });
  });

  it("refuses auto-clone for a uid inside a zone, naming the path with the component's display name", async () => {
    const refused = await app.post(`${L}/auto-clone/1`, {}, { token });
    expect(refused.status).to.equal(400);
    // The hero's one-to-one is unidirectional: a copy steals nothing (Strapi's checkRelation), so only the uid is named.
    expect(refused.body.error.details).to.deep.equal({ prohibitedFields: [[['blocks', 'Hero', 'code'], 'unique']] });
  });
});

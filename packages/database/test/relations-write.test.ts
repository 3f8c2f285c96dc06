/**
 * Relation writes through REST, for every relation kind of the example app
 * and every write syntax: plain id, list of ids, connect/disconnect/set in
 * shorthand and longhand, null, and an omitted key on update.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { create, createMany, relatedIds } from './relations-helpers';

interface Kind {
  title: string;
  /** REST collection of the source. */
  plural: string;
  field: string;
  toMany: boolean;
  /** Required attributes of a new source. */
  base: () => Record<string, unknown>;
  targets: () => number[];
}

eachDatabase('relation writes: every kind × every syntax', (dialect) => {
  let app: TestApp;
  let token: string;
  const ids: Record<string, number[]> = {};
  let counter = 0;
  const unique = () => `n${++counter}`;

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    ids.categories = await createMany(app, token, 'categories', [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }]);
    ids.tags = await createMany(app, token, 'tags', [{ name: 'T1' }, { name: 'T2' }, { name: 'T3' }]);
    ids.writers = await createMany(app, token, 'writers', [{ name: 'W1' }, { name: 'W2' }, { name: 'W3' }]);
    ids.articles = await createMany(app, token, 'articles', [{ title: 'A1' }, { title: 'A2' }, { title: 'A3' }]);
    ids.profiles = await createMany(app, token, 'writer-profiles', [{ bio: 'P1' }, { bio: 'P2' }, { bio: 'P3' }]);
    ids.pages = await createMany(app, token, 'pages', [{ title: 'Root 1' }, { title: 'Root 2' }, { title: 'Root 3' }]);
  });
  after(() => app.stop());

  const kinds: Kind[] = [
    { title: 'manyToOne (owner)', plural: 'articles', field: 'category', toMany: false, base: () => ({ title: unique() }), targets: () => ids.categories },
    { title: 'oneToMany (inverse of manyToOne)', plural: 'categories', field: 'articles', toMany: true, base: () => ({ name: unique() }), targets: () => ids.articles },
    { title: 'manyToMany (owner)', plural: 'articles', field: 'tags', toMany: true, base: () => ({ title: unique() }), targets: () => ids.tags },
    { title: 'manyToMany (inverse)', plural: 'tags', field: 'articles', toMany: true, base: () => ({ name: unique() }), targets: () => ids.articles },
    { title: 'oneToOne (owner)', plural: 'writer-profiles', field: 'writer', toMany: false, base: () => ({ bio: unique() }), targets: () => ids.writers },
    { title: 'oneToOne (inverse)', plural: 'writers', field: 'profile', toMany: false, base: () => ({ name: unique() }), targets: () => ids.profiles },
    { title: 'oneWay', plural: 'pages', field: 'author', toMany: false, base: () => ({ title: unique() }), targets: () => ids.writers },
    { title: 'manyWay', plural: 'pages', field: 'relatedArticles', toMany: true, base: () => ({ title: unique() }), targets: () => ids.articles },
    { title: 'manyToOne (self, owner)', plural: 'pages', field: 'parent', toMany: false, base: () => ({ title: unique() }), targets: () => ids.pages },
    { title: 'oneToMany (self, inverse)', plural: 'pages', field: 'children', toMany: true, base: () => ({ title: unique() }), targets: () => ids.pages },
  ];

  for (const kind of kinds) {
    describe(kind.title, () => {
      const read = (id: number) => relatedIds(app, token, `/api/${kind.plural}/${id}`, kind.field);
      const put = async (id: number, value: unknown, extra: Record<string, unknown> = {}) => {
        const response = await app.put(`/api/${kind.plural}/${id}`, { data: { [kind.field]: value, ...extra } }, { token });
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
      };
      const expectList = async (id: number, list: number[]) => {
        expect(await read(id)).to.deep.equal(kind.toMany ? list : list.length === 0 ? null : list[list.length - 1]);
      };

      it('plain id and list of ids on create', async () => {
        const [a, b] = kind.targets();
        const single = await create(app, token, kind.plural, { ...kind.base(), [kind.field]: a });
        await expectList(single, [a]);
        const listed = await create(app, token, kind.plural, { ...kind.base(), [kind.field]: [a, b] });
        await expectList(listed, kind.toMany ? [a, b] : [b]);
      });

      it('connect and disconnect, shorthand and longhand', async () => {
        const [a, b, c] = kind.targets();
        const id = await create(app, token, kind.plural, kind.base());
        await expectList(id, []);
        await put(id, { connect: [a] });
        await expectList(id, [a]);
        await put(id, { connect: [{ id: b }] });
        await expectList(id, kind.toMany ? [a, b] : [b]);
        if (kind.toMany) {
          await put(id, { connect: [{ id: c, position: { start: true } }] });
          await expectList(id, [c, a, b]);
          await put(id, { disconnect: [a], connect: [{ id: a, position: { before: c } }] });
          await expectList(id, [a, c, b]);
          await put(id, { disconnect: [{ id: c }] });
          await expectList(id, [a, b]);
        } else {
          await put(id, { disconnect: [b] });
          await expectList(id, []);
        }
      });

      it('set, shorthand and longhand, replaces in the given order', async () => {
        const [a, b, c] = kind.targets();
        const id = await create(app, token, kind.plural, { ...kind.base(), [kind.field]: { set: [a] } });
        await expectList(id, [a]);
        await put(id, { set: [c, a] });
        await expectList(id, kind.toMany ? [c, a] : [a]);
        await put(id, { set: [{ id: b }] });
        await expectList(id, [b]);
        await put(id, { set: [] });
        await expectList(id, []);
      });

      it('null clears; an omitted key leaves the relation as it was', async () => {
        const [a] = kind.targets();
        const id = await create(app, token, kind.plural, { ...kind.base(), [kind.field]: [a] });
        const other = Object.keys(kind.base())[0];
        await put(id, undefined, { [other]: unique() });
        await expectList(id, [a]);
        await put(id, null);
        await expectList(id, []);
      });
    });
  }

  it('single type: homepage featuredArticles (unidirectional oneToMany)', async () => {
    const [a, b, c] = ids.articles;
    const response = await app.put('/api/homepage', { data: { title: 'Home', featuredArticles: [a, b] } }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    await app.put('/api/homepage', { data: { featuredArticles: { connect: [{ id: c, position: { after: a } }] } } }, { token });
    expect(await relatedIds(app, token, '/api/homepage', 'featuredArticles')).to.deep.equal([a, c, b]);
  });
});

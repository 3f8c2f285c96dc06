/**
 * An update of a dynamic zone or component keeps the components it names by id, as Strapi 4.26.2's entity service
 * does (`updateOrCreateComponent`): the row is updated in place, so a relation inside it sent as changes
 * (`{ connect: [], disconnect: [] }`, how the admin panel sends every relation) keeps what it had. Tessera recreated
 * every component on update: saving FoodAdvisor's home page in the panel emptied its related-restaurants block,
 * and the panel's next request for that block's relations (by its old id) was a 404. Unlike Strapi, an id the
 * field does not hold (another entry's component) is inserted as a new component, never taken over.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const PAGE = 'api::page.page';
const SHOP = 'api::shop.shop';
const PICKS = 'blocks.picks';
const NOTE = 'blocks.note';

const files = {
  'src/components/blocks/picks.json': { collectionName: 'components_blocks_picks', info: { displayName: 'picks' }, attributes: { title: { type: 'string' }, shops: { type: 'relation', relation: 'oneToMany', target: SHOP } } },
  'src/components/blocks/note.json': { collectionName: 'components_blocks_notes', info: { displayName: 'note' }, attributes: { text: { type: 'string' } } },
  'src/api/shop/content-types/shop/schema.json': {
    kind: 'collectionType',
    collectionName: 'shops',
    info: { singularName: 'shop', pluralName: 'shops', displayName: 'Shop' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
  'src/api/page/content-types/page/schema.json': {
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, blocks: { type: 'dynamiczone', components: [PICKS, NOTE] } },
  },
};

interface Block {
  id: number;
  __component: string;
  title?: string;
  text?: string;
  shops?: Array<{ id: number }>;
}

eachDatabase('components updated in place by id, as Strapi 4.26.2', (dialect) => {
  let app: TestApp;
  let shops: number[];

  before(async () => {
    app = await startApp({ dialect, files });
    shops = [];
    for (const name of ['Mint', 'Sakura', 'Pho']) shops.push((await app.app.db.query(SHOP).create({ data: { name } })).id as number);
  });
  after(() => app?.stop());

  const blocksOf = async (id: number): Promise<Block[]> => {
    const page = await app.app.db.query(PAGE).findOne({ where: { id }, populate: { blocks: { populate: { shops: true } } } });
    return (page?.blocks ?? []) as Block[];
  };

  it("keeps a block's id and its relations when the update names it, with relation changes only", async () => {
    const page = await app.app.db.query(PAGE).create({ data: { title: 'Home', blocks: [{ __component: PICKS, title: 'Top', shops: [shops[0], shops[1]] }, { __component: NOTE, text: 'Hi' }] } });
    const [picks, note] = await blocksOf(page.id as number);
    await app.app.db.query(PAGE).update({
      where: { id: page.id },
      data: { blocks: [{ __component: NOTE, text: 'First' }, { __component: PICKS, id: picks.id, title: 'Top picks', shops: { connect: [{ id: shops[2] }], disconnect: [{ id: shops[0] }] } }] },
    });
    const after = await blocksOf(page.id as number);
    expect(after.map((block) => [block.__component, block.title ?? block.text])).to.deep.equal([[NOTE, 'First'], [PICKS, 'Top picks']]);
    expect(after[1].id).to.equal(picks.id);
    expect(after[1].shops!.map((shop) => shop.id)).to.deep.equal([shops[1], shops[2]]);
    // The note the update no longer named is gone from its table; the new one is a new row.
    expect(after[0].id).to.not.equal(note.id);
    expect(await app.app.db.query(NOTE).count({ where: { id: note.id } })).to.equal(0);
  });

  it("inserts a new component for an id the field does not hold, leaving the other entry's component alone", async () => {
    const other = await app.app.db.query(PAGE).create({ data: { title: 'Other', blocks: [{ __component: NOTE, text: 'Theirs' }] } });
    const [theirs] = await blocksOf(other.id as number);
    const mine = await app.app.db.query(PAGE).create({ data: { title: 'Mine', blocks: [] } });
    await app.app.db.query(PAGE).update({ where: { id: mine.id }, data: { blocks: [{ __component: NOTE, id: theirs.id, text: 'Mine now?' }] } });
    const [own] = await blocksOf(mine.id as number);
    expect([own.text, own.id === theirs.id]).to.deep.equal(['Mine now?', false]);
    expect((await blocksOf(other.id as number)).map((block) => [block.id, block.text])).to.deep.equal([[theirs.id, 'Theirs']]);
  });
});

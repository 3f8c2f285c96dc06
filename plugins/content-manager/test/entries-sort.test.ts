/**
 * The list's sort on a relation column: the panel asks for `sort=category[name]:ASC` (the relation, then its main
 * field in brackets), which Strapi 4.26.2's content manager reads as the path category.name (recorded in
 * recordings/strapi-4.26.2-draft-relation.json). Tessera dropped it as a field it did not know and answered in id
 * order. On every database: the entries come in their category's order, an unknown field after the relation is a
 * 400 (Strapi answers it with a 500), and REST still refuses the bracket form, as Strapi's REST does.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerFirstAdmin, startEntriesApp } from './entries-fixture';
import recorded from './recordings/strapi-4.26.2-draft-relation.json';

const A = '/content-manager/collection-types/api::article.article';

eachDatabase('content manager entries: a list sorted on a relation column', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startEntriesApp(dialect);
    token = await registerFirstAdmin(app);
    const es = app.app.entityService;
    const beta = (await es.create('api::category.category', { data: { name: 'Beta' } })).id;
    const alpha = (await es.create('api::category.category', { data: { name: 'Alpha' } })).id;
    // Created in an order that is neither the categories' nor the titles'.
    for (const [title, category] of [['First', beta], ['Second', null], ['Third', alpha], ['Fourth', beta]] as const) {
      await es.create('api::article.article', { data: { title, category } });
    }
  });
  after(() => app?.stop());

  async function titles(sort: string): Promise<string[]> {
    const response = await app.get(`${A}?page=1&pageSize=10&sort=${encodeURIComponent(sort)}`, { token });
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    return response.body.results.map((entry: { title: string }) => entry.title);
  }

  it("sorts on the relation's field given in brackets, as the panel's column header asks", async () => {
    expect(recorded.relationColumnSort.ascending).to.deep.equal([null, 'Upcoming']);
    // Where the entry without a category goes is the database's (first on SQLite and MariaDB, last on PostgreSQL, as
    // on Strapi); the others follow their category, ties in id order.
    const ascending = await titles('category[name]:ASC');
    expect(ascending.filter((title) => title !== 'Second')).to.deep.equal(['Third', 'First', 'Fourth']);
    expect([ascending[0], ascending[3]]).to.include('Second');
    const descending = await titles('category[name]:DESC');
    expect(descending.filter((title) => title !== 'Second')).to.deep.equal(['First', 'Fourth', 'Third']);
    expect(await titles('category.name:ASC')).to.deep.equal(ascending);
  });

  it('answers an unknown field after the relation with a 400', async () => {
    const response = await app.get(`${A}?page=1&pageSize=10&sort=${encodeURIComponent('category[nope]:ASC')}`, { token });
    expect(response.status).to.equal(400);
    expect(response.body.error.message).to.equal('Invalid parameter nope');
  });

  it('keeps REST refusing the bracket form, as Strapi does', async () => {
    const apiToken = await app.fullAccessToken();
    const response = await app.get(`/api/articles?sort=${encodeURIComponent('category[name]:ASC')}`, { token: apiToken });
    expect({ status: response.status, message: response.body.error?.message }).to.deep.equal(recorded.relationColumnSort.rest);
  });
});

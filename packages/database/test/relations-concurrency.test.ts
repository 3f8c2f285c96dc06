/**
 * Concurrent writes to the same relations: parallel creates, updates and
 * deletes that renumber the same ordered lists must all succeed (no deadlock
 * → 500 on Postgres), and every list's order column must end up 1..N on both
 * sides, with each side agreeing with the other.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { createMany } from './relations-helpers';

eachDatabase('concurrent relation writes', (dialect) => {
  let app: TestApp;
  let token: string;
  let tags: number[];
  let categories: number[];

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    tags = await createMany(app, token, 'tags', [1, 2, 3, 4, 5].map((n) => ({ name: `T${n}` })));
    categories = await createMany(app, token, 'categories', [1, 2, 3].map((n) => ({ name: `C${n}` })));
  });
  after(() => app.stop());

  /** Order values per group of a join table, each sorted. */
  async function ordersByGroup(table: string, groupColumn: string, orderColumn: string): Promise<Map<number, number[]>> {
    const connection = app.app.db.sql;
    const rows = await connection.all(connection.knex.from(table).select(groupColumn, orderColumn));
    const groups = new Map<number, number[]>();
    for (const row of rows) {
      const group = Number(row[groupColumn]);
      groups.set(group, [...(groups.get(group) ?? []), Number(row[orderColumn])]);
    }
    for (const list of groups.values()) list.sort((a, b) => a - b);
    return groups;
  }

  async function expectDenseOrders(table: string, groupColumn: string, orderColumn: string): Promise<void> {
    for (const [group, orders] of await ordersByGroup(table, groupColumn, orderColumn)) {
      expect(orders, `${table}.${orderColumn} of ${groupColumn}=${group}`).to.deep.equal(orders.map((_, index) => index + 1));
    }
  }

  const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status);

  it('20 parallel creates, updates (keys in either order) and deletes on the same tags and categories all succeed, orders stay 1..N', async function () {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        app.post('/api/articles', { data: { title: `P${n}`, category: categories[n % 3], tags: { connect: [{ id: tags[0], position: { start: true } }, tags[1]] } } }, { token }),
      ),
    );
    expect(statuses(created)).to.deep.equal(created.map(() => 200));
    const articles = created.map((response) => response.body.data.id as number);

    // Relation keys in both orders in the body, so a write's lock order cannot follow the client's key order.
    const updated = await Promise.all(
      articles.map((id, n) =>
        app.put(`/api/articles/${id}`, { data: n % 2 ? { tags: { set: [tags[2], tags[3]] }, category: categories[(n + 1) % 3] } : { category: categories[(n + 1) % 3], tags: { set: [tags[3], tags[2]] } } }, { token }),
      ),
    );
    expect(statuses(updated)).to.deep.equal(updated.map(() => 200));

    const mixed = await Promise.all([
      ...articles.slice(0, 8).map((id) => app.put(`/api/tags/${tags[4]}`, { data: { articles: { connect: [{ id, position: { start: true } }] } } }, { token })),
      ...articles.slice(8, 14).map((id) => app.put(`/api/articles/${id}`, { data: { tags: { connect: [{ id: tags[4], position: { start: true } }] } } }, { token })),
      ...articles.slice(14).map((id) => app.delete(`/api/articles/${id}`, { token })),
    ]);
    expect(statuses(mixed)).to.deep.equal(mixed.map(() => 200));

    await expectDenseOrders('articles_tags_links', 'article_id', 'tag_order');
    await expectDenseOrders('articles_tags_links', 'tag_id', 'article_order');
    await expectDenseOrders('articles_category_links', 'category_id', 'article_order');
    const tagged = await app.get(`/api/tags/${tags[4]}?populate[articles][fields][0]=id`, { token });
    expect(tagged.body.data.attributes.articles.data).to.have.length(14);
    const byCategory = await ordersByGroup('articles_category_links', 'category_id', 'article_order');
    expect([...byCategory.values()].reduce((sum, list) => sum + list.length, 0)).to.equal(14);
  });

  it('updates racing a delete of the same entry, and writes from the other side, never deadlock', async function () {
    for (let round = 0; round < 5; round++) {
      const article = (await app.post('/api/articles', { data: { title: `R${round}`, tags: [tags[0], tags[1]], category: categories[0] } }, { token })).body.data.id;
      const responses = await Promise.all([
        ...[0, 1, 2, 3].map((n) => app.put(`/api/articles/${article}`, { data: { title: `U${n}`, tags: { connect: [{ id: tags[2 + (n % 3)], position: { start: true } }] } } }, { token })),
        app.delete(`/api/articles/${article}`, { token }),
        ...[0, 1, 2, 3].map((n) => app.put(`/api/tags/${tags[n % 2]}`, { data: { articles: { connect: [article] } } }, { token })),
      ]);
      const unexpected = responses.filter((response) => ![200, 400, 404].includes(response.status));
      expect(unexpected.map((response) => response.text)).to.deep.equal([]);
      expect(responses[4].status).to.equal(200);
    }
    await expectDenseOrders('articles_tags_links', 'tag_id', 'article_order');
    await expectDenseOrders('articles_category_links', 'category_id', 'article_order');
  });
});

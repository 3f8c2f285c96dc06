/**
 * Relation order and integrity: positions applied in sequence with the
 * resulting order on both sides (join-table order columns renumbered 1..N),
 * moves that keep oneToOne / manyToOne both sides consistent, last-wins on
 * to-one kinds, and every bad input a 400 that writes nothing.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { create, createMany, expectValidation, joinRows, orderedBy, relatedIds } from './relations-helpers';

eachDatabase('relation order and integrity', (dialect) => {
  let app: TestApp;
  let token: string;
  let tags: number[];
  let categories: number[];

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    tags = await createMany(app, token, 'tags', [1, 2, 3, 4, 5].map((n) => ({ name: `T${n}` })));
    categories = await createMany(app, token, 'categories', [{ name: 'C1' }, { name: 'C2' }]);
  });
  after(() => app.stop());

  const putArticle = (id: number, data: Record<string, unknown>) => app.put(`/api/articles/${id}`, { data }, { token });

  it('applies a sequence of positioned connects, each against the list as it is then', async () => {
    const [t1, t2, t3, t4, t5] = tags;
    const article = await create(app, token, 'articles', { title: 'Positions', tags: [t1] });
    const steps: Array<[unknown, number[]]> = [
      [{ connect: [{ id: t2, position: { start: true } }] }, [t2, t1]],
      [{ connect: [{ id: t3, position: { after: t2 } }, { id: t4, position: { before: t1 } }] }, [t2, t3, t4, t1]],
      [{ connect: [{ id: t1, position: { start: true } }, { id: t5, position: { end: true } }] }, [t1, t2, t3, t4, t5]],
      [{ connect: [{ id: t5, position: { before: t3 } }, { id: t2, position: { after: t4 } }] }, [t1, t5, t3, t4, t2]],
      [{ disconnect: [t3], connect: [{ id: t4, position: { start: true } }] }, [t4, t1, t5, t2]],
      // No position is Strapi v4's { end: true }: an id already connected moves to the end, in shorthand and longhand.
      [{ connect: [t1] }, [t4, t5, t2, t1]],
      [{ connect: [{ id: t4 }] }, [t5, t2, t1, t4]],
    ];
    for (const [value, expected] of steps) {
      const response = await putArticle(article, { tags: value });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(await relatedIds(app, token, `/api/articles/${article}`, 'tags')).to.deep.equal(expected);
      const stored = await orderedBy(app, 'articles_tags_links', 'article_id', article, 'tag_id', 'tag_order');
      expect(stored).to.deep.equal(expected.map((tag, index) => [tag, index + 1]));
    }
  });

  it('keeps the inverse order (article_order) per tag, renumbered from both sides', async () => {
    const tag = tags[4];
    const [a, b, c] = await createMany(app, token, 'articles', ['A', 'B', 'C'].map((title) => ({ title: `Inverse ${title}` })));
    for (const article of [a, b, c]) await putArticle(article, { tags: { connect: [tag] } });
    const before = await relatedIds(app, token, `/api/tags/${tag}?populate[articles][filters][title][$startsWith]=Inverse`, 'articles');
    expect(before).to.deep.equal([a, b, c]);

    // From the tag's side: move c first.
    const moved = await app.put(`/api/tags/${tag}`, { data: { articles: { connect: [{ id: c, position: { start: true } }] } } }, { token });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const inverse = async () => (await orderedBy(app, 'articles_tags_links', 'tag_id', tag, 'article_id', 'article_order')).filter(([article]) => [a, b, c].includes(article));
    const all = async () => (await orderedBy(app, 'articles_tags_links', 'tag_id', tag, 'article_id', 'article_order')).map(([, order]) => order);
    expect((await inverse()).map(([article]) => article)).to.deep.equal([c, a, b]);
    const orders = await all();
    expect(orders).to.deep.equal(orders.map((_, index) => index + 1));

    // From an article's side: b leaves the tag; the tag's list closes the gap.
    await putArticle(b, { tags: { disconnect: [tag] } });
    expect((await inverse()).map(([article]) => article)).to.deep.equal([c, a]);
    const after = await all();
    expect(after).to.deep.equal(after.map((_, index) => index + 1));
    // The owner side's own order column is renumbered for c too (its tag list is [tag]).
    expect(await orderedBy(app, 'articles_tags_links', 'article_id', c, 'tag_id', 'tag_order')).to.deep.equal([[tag, 1]]);
  });

  it('orders a category’s articles (inverse of manyToOne) and moves an article between categories', async () => {
    const [c1, c2] = categories;
    const [x, y, z] = await createMany(app, token, 'articles', ['X', 'Y', 'Z'].map((title) => ({ title, category: c1 })));
    expect(await relatedIds(app, token, `/api/categories/${c1}`, 'articles')).to.deep.equal([x, y, z]);
    const response = await app.put(`/api/categories/${c2}`, { data: { articles: { connect: [y] } } }, { token });
    expect(response.status).to.equal(200);
    expect(await relatedIds(app, token, `/api/articles/${y}`, 'category')).to.equal(c2);
    expect(await relatedIds(app, token, `/api/categories/${c1}`, 'articles')).to.deep.equal([x, z]);
    expect(await orderedBy(app, 'articles_category_links', 'category_id', c1, 'article_id', 'article_order')).to.deep.equal([[x, 1], [z, 2]]);
    expect(await joinRows(app, 'articles_category_links', { article_id: y }, ['category_id'])).to.deep.equal([{ category_id: c2 }]);
  });

  it('oneToOne: connecting a writer held by another profile moves it, from either side', async () => {
    const [w1, w2] = await createMany(app, token, 'writers', [{ name: 'OW1' }, { name: 'OW2' }]);
    const p1 = await create(app, token, 'writer-profiles', { bio: 'P1', writer: w1 });
    const p2 = await create(app, token, 'writer-profiles', { bio: 'P2', writer: w1 });
    expect(await relatedIds(app, token, `/api/writer-profiles/${p1}`, 'writer')).to.equal(null);
    expect(await relatedIds(app, token, `/api/writers/${w1}`, 'profile')).to.equal(p2);
    await app.put(`/api/writers/${w2}`, { data: { profile: p2 } }, { token });
    expect(await relatedIds(app, token, `/api/writer-profiles/${p2}`, 'writer')).to.equal(w2);
    expect(await relatedIds(app, token, `/api/writers/${w1}`, 'profile')).to.equal(null);
    expect(await joinRows(app, 'writer_profiles_writer_links', { writer_id: w2 }, ['writer_profile_id'])).to.deep.equal([{ writer_profile_id: p2 }]);
  });

  it('to-one kinds keep only the last connected id', async () => {
    const [c1, c2] = categories;
    const article = await create(app, token, 'articles', { title: 'Last wins', category: { connect: [c1, c2] } });
    expect(await relatedIds(app, token, `/api/articles/${article}`, 'category')).to.equal(c2);
    await putArticle(article, { category: { connect: [{ id: c2 }, { id: c1 }] } });
    expect(await relatedIds(app, token, `/api/articles/${article}`, 'category')).to.equal(c1);
    expect(await joinRows(app, 'articles_category_links', { article_id: article }, ['category_id'])).to.deep.equal([{ category_id: c1 }]);
  });

  describe('bad input is a 400 that writes nothing', () => {
    let article: number;
    before(async () => {
      article = await create(app, token, 'articles', { title: 'Untouched', tags: [tags[0]], category: categories[0] });
    });
    afterEach(async () => {
      const response = await app.get(`/api/articles/${article}?populate[tags][fields][0]=id&populate[category][fields][0]=id`, { token });
      expect(response.body.data.attributes.title).to.equal('Untouched');
      expect(response.body.data.attributes.tags.data.map((tag: { id: number }) => tag.id)).to.deep.equal([tags[0]]);
      expect(response.body.data.attributes.category.data.id).to.equal(categories[0]);
    });

    it('set combined with connect', async () => {
      expectValidation(await putArticle(article, { title: 'Changed', tags: { set: [tags[1]], connect: [tags[2]] } }), ['tags']);
    });

    it('the same id connected twice', async () => {
      expectValidation(await putArticle(article, { title: 'Changed', tags: { connect: [tags[1], { id: tags[1] }] } }), ['tags', 'connect', '1']);
    });

    it('an id that does not exist, named in the message (after other writes already ran)', async () => {
      const response = await putArticle(article, { title: 'Changed', category: categories[1], tags: { connect: [tags[1], 987654] } });
      expectValidation(response, ['tags']);
      expect(response.body.error.message).to.contain('987654');
    });

    it('a position relative to an entry that is not connected', async () => {
      expectValidation(await putArticle(article, { title: 'Changed', tags: { connect: [{ id: tags[1], position: { before: tags[4] } }] } }), ['tags', 'connect', '0', 'position', 'before']);
    });

    it('malformed positions, ids and keys', async () => {
      expectValidation(await putArticle(article, { tags: { connect: [{ id: tags[1], position: { start: true, end: true } }] } }), ['tags', 'connect', '0', 'position']);
      expectValidation(await putArticle(article, { tags: { connect: [{ id: tags[1], position: { start: 'yes' } }] } }), ['tags', 'connect', '0', 'position', 'start']);
      expectValidation(await putArticle(article, { tags: { connect: [{ id: 'x' }] } }), ['tags', 'connect', '0']);
      expectValidation(await putArticle(article, { tags: { attach: [1] } }), ['tags', 'attach']);
      expectValidation(await putArticle(article, { category: 'abc' }), ['category']);
      expectValidation(await putArticle(article, { category: { connect: [-1] } }), ['category', 'connect', '0']);
      expectValidation(await putArticle(article, { tags: [tags[1], tags[1]] }), ['tags', '1']);
      expectValidation(await putArticle(article, { category: 99999999999 }), ['category']);
      expectValidation(await putArticle(article, { tags: { connect: [{ id: 1, position: { after: 1e12 } }] } }), ['tags', 'connect', '0', 'position', 'after']);
      expectValidation(await putArticle(article, { tags: { set: 'all' } }), ['tags', 'set']);
      expectValidation(await putArticle(article, { tags: { connect: 'abc', disconnect: [true] } }), ['tags', 'disconnect', '0']);
    });

    it('connect on a media attribute, and a missing file', async () => {
      expectValidation(await putArticle(article, { title: 'Changed', cover: { connect: [1] } }), ['cover']);
      const response = await putArticle(article, { title: 'Changed', cover: 424242 });
      expectValidation(response, ['cover']);
      expect(response.body.error.message).to.contain('424242');
    });
  });

  it('deleting an entry removes its join rows, renumbers the other side’s lists and leaves it intact', async () => {
    const article = await create(app, token, 'articles', { title: 'Doomed', tags: [tags[0], tags[1]], category: categories[0] });
    const survivor = await create(app, token, 'articles', { title: 'Survivor', tags: [tags[0]], category: categories[0] });
    const response = await app.delete(`/api/articles/${article}`, { token });
    expect(response.status).to.equal(200);
    for (const [table, column, target] of [['articles_tags_links', 'tag_id', tags[0]], ['articles_category_links', 'category_id', categories[0]]] as const) {
      const orders = (await orderedBy(app, table, column, target, 'article_id', 'article_order')).map(([, order]) => order);
      expect(orders).to.deep.equal(orders.map((_, index) => index + 1));
      expect((await orderedBy(app, table, column, target, 'article_id', 'article_order')).pop()).to.deep.equal([survivor, orders.length]);
    }
    expect(await joinRows(app, 'articles_tags_links', { article_id: article }, ['tag_id'])).to.deep.equal([]);
    expect(await joinRows(app, 'articles_category_links', { article_id: article }, ['category_id'])).to.deep.equal([]);
    expect((await app.get(`/api/tags/${tags[0]}`, { token })).status).to.equal(200);
    expect((await app.get(`/api/categories/${categories[0]}`, { token })).status).to.equal(200);
  });
});

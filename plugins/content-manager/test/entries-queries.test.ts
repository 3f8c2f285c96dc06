/**
 * What a content-manager screen costs does not grow with the entries it shows: the list (to-one relations, to-many
 * counts, a component, media, authors), an entry, the relation pickers and the draft-relation counts run the same
 * number of queries for a page of 5 entries as for a page of 50 (each populated attribute one query per level for
 * all entries; the authors two). Counted on the real connection with `onQuery`.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerFirstAdmin, startEntriesApp } from './entries-fixture';

const A = '/content-manager/collection-types/api::article.article';

eachDatabase('content manager entries: queries per request', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startEntriesApp(dialect);
    token = await registerFirstAdmin(app);
    const es = app.app.entityService;
    const tags = [];
    for (let i = 1; i <= 5; i += 1) tags.push((await es.create('api::tag.tag', { data: { name: `Tag ${i}`, createdBy: 1, updatedBy: 1 } })).id);
    const category = (await es.create('api::category.category', { data: { name: 'News', createdBy: 1 } })).id;
    const writer = (await es.create('api::writer.writer', { data: { name: 'Ann' } })).id;
    for (let i = 1; i <= 50; i += 1) {
      await es.create('api::article.article', {
        data: { title: `Article ${i}`, slug: `article-${i}`, category, author: writer, tags: tags.slice(0, 1 + (i % 5)), seo: { metaTitle: `Meta ${i}` }, createdBy: 1, updatedBy: 1, publishedAt: i % 2 ? new Date() : null },
      });
    }
    await es.create('api::homepage.homepage', { data: { title: 'Home', featuredArticles: Array.from({ length: 50 }, (_, k) => k + 1), createdBy: 1 } });
  });
  after(() => app?.stop());

  async function count(path: string): Promise<number> {
    let queries = 0;
    const stop = app.app.db.sql.onQuery(() => {
      queries += 1;
    });
    try {
      const response = await app.get(encodeURI(path), { token });
      expect(response.status, response.text.slice(0, 300)).to.equal(200);
      return queries;
    } finally {
      stop();
    }
  }

  const pairs: Array<[string, string, string]> = [
    ['the list', `${A}?page=1&pageSize=5&sort=title:ASC`, `${A}?page=1&pageSize=50&sort=title:ASC`],
    ['a search', `${A}?page=1&pageSize=5&_q=Article`, `${A}?page=1&pageSize=50&_q=Article`],
    ['an entry', `${A}/1`, `${A}/50`],
    ['a relation picker', '/content-manager/relations/api::homepage.homepage/featuredArticles?pageSize=5&page=1&entityId=1', '/content-manager/relations/api::homepage.homepage/featuredArticles?pageSize=50&page=1&entityId=1'],
    ["an entry's relations", '/content-manager/relations/api::homepage.homepage/1/featuredArticles?pageSize=5&page=1', '/content-manager/relations/api::homepage.homepage/1/featuredArticles?pageSize=50&page=1'],
    ['draft-relation counts of many', `${A}/actions/countManyEntriesDraftRelations?ids[0]=1&ids[1]=2`, `${A}/actions/countManyEntriesDraftRelations?${Array.from({ length: 50 }, (_, k) => `ids[${k}]=${k + 1}`).join('&')}`],
  ];

  for (const [title, small, large] of pairs) {
    it(`${title}: as many queries for 50 entries as for 5`, async () => {
      const few = await count(small);
      const many = await count(large);
      expect(many).to.equal(few);
      expect(few).to.be.at.most(12);
    });
  }
});

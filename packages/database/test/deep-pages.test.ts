/**
 * Deep pages (sql/deep-page.ts): a page far into a list is read ids first, then its rows by id, in one statement.
 * Its answer is the one-step form's, byte for byte: the same entries, read at page 1 by their ids (a near page, one
 * step), give the same JSON; the ids and totals are those the seed itself says (sorted by id, by a column with ties
 * and nulls, with filters, with populate, with and without a cached total). A deep page runs as many statements as
 * a near one, ids first past DEEP_OFFSET and whenever the total comes with the page. The id step's plan reads an
 * index alone where one holds its columns. A deep page of a list in id order starts after a mark (sql/page-marks.ts)
 * from the second deep page under one stamp, with the same answer, and a write here or in another app on the same
 * database is in the next page's answer.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const FILES = {
  'src/api/category/content-types/category/schema.json': {
    kind: 'collectionType',
    collectionName: 'categories',
    info: { singularName: 'category', pluralName: 'categories', displayName: 'category' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'post' },
    options: { draftAndPublish: true },
    pluginOptions: { tessera: { indexes: [['publishedAt', 'views']] } },
    attributes: {
      title: { type: 'string' },
      views: { type: 'integer', index: true },
      rating: { type: 'integer' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
    },
  },
};

const UID = 'api::post.post';
/** Enough entries that pages start past deep-page.ts's DEEP_OFFSET (1,000) under `live` too. */
const POSTS = 4000;

interface Seed {
  id: number;
  title: string;
  views: number | null;
  rating: number;
  category: number | null;
  published: boolean;
}

const SEED: Seed[] = Array.from({ length: POSTS }, (_, n) => ({
  id: n + 1,
  title: `Post ${String((n * 7919) % POSTS).padStart(4, '0')}`,
  views: n % 7 === 0 ? null : (n * 37) % 100,
  rating: n % 5,
  category: n % 4 === 0 ? null : 1 + (n % 6),
  published: n % 3 !== 0,
}));

type Key = 'id' | 'title' | 'views';
/** The order the databases give: nulls first ascending and last descending, text by code point, ties by id. */
function sorted(entries: Seed[], key: Key, direction: 'asc' | 'desc'): Seed[] {
  const sign = direction === 'asc' ? 1 : -1;
  const compare = (a: Seed[Key], b: Seed[Key]) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
  return [...entries].sort((a, b) => sign * compare(a[key], b[key]) || a.id - b.id);
}

interface Case {
  name: string;
  query: string;
  /** The seed's entries the query keeps, in its order. */
  expected: Seed[];
  start: number;
}

const live = SEED.filter((entry) => entry.published);
const CASES: Case[] = [
  { name: 'by id (the default sort)', query: 'sort=id', expected: sorted(live, 'id', 'asc'), start: 1300 },
  { name: 'by id, descending', query: 'sort=id:desc', expected: sorted(live, 'id', 'desc'), start: 1575 },
  { name: 'by views (ties, nulls), descending', query: 'sort=views:desc', expected: sorted(live, 'views', 'desc'), start: 1210 },
  { name: 'by views, ascending, the nulls first', query: 'sort=views', expected: sorted(live, 'views', 'asc'), start: 1000 },
  {
    name: 'filtered (views >= 20, rating not 1), by views',
    query: 'filters[views][$gte]=20&filters[rating][$ne]=1&sort=views',
    expected: sorted(live.filter((entry) => entry.views !== null && entry.views >= 20 && entry.rating !== 1), 'views', 'asc'),
    start: 1010,
  },
  {
    name: 'preview, filtered on views, by title, with the category populated',
    query: 'publicationState=preview&filters[views][$lt]=90&sort=title&populate[category][fields][0]=name',
    expected: sorted(SEED.filter((entry) => entry.views !== null && entry.views < 90), 'title', 'asc'),
    start: 1900,
  },
  {
    name: 'filtered through the category, populated',
    query: 'filters[category][name][$in][0]=Category 2&filters[category][name][$in][1]=Category 5&filters[category][name][$in][2]=Category 6&populate=category',
    expected: live.filter((entry) => entry.category !== null && [2, 5, 6].includes(entry.category)),
    start: 1000,
  },
];

eachDatabase('deep pages: ids first, then rows, as the one-step form answers', (dialect) => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await startApp({ dialect, files: FILES });
    token = await app.fullAccessToken();
    const connection = app.app.db.sql;
    const at = (minute: number) => (dialect === 'sqlite' ? Date.UTC(2026, 0, 1, 0, minute) : new Date(Date.UTC(2026, 0, 1, 0, minute)));
    await connection.run(connection.knex('categories').insert(Array.from({ length: 6 }, (_, n) => ({ id: n + 1, name: `Category ${n + 1}` }))));
    const join = app.app.db.metadata.get('api::post.post')!.links.get('category');
    if (join?.kind !== 'relation') throw new Error('posts.category is a relation');
    const { name, joinColumn, inverseJoinColumn } = join.joinTable;
    for (let start = 0; start < POSTS; start += 200) {
      const chunk = SEED.slice(start, start + 200);
      await connection.run(
        connection.knex('posts').insert(
          chunk.map((entry) => ({
            id: entry.id,
            title: entry.title,
            views: entry.views,
            rating: entry.rating,
            created_at: at(entry.id),
            updated_at: at(entry.id),
            published_at: entry.published ? at(entry.id) : null,
          })),
        ),
      );
      const links = chunk.filter((entry) => entry.category !== null).map((entry) => ({ [joinColumn]: entry.id, [inverseJoinColumn]: entry.category }));
      await connection.run(connection.knex(name).insert(links));
    }
    // PostgreSQL: the visibility map autovacuum would write, so an index-only scan need not visit the table.
    if (dialect === 'postgres') await connection.raw('VACUUM ANALYZE posts');
  });
  after(() => app?.stop());

  const read = async (query: string) => {
    const response = await app.get(`/api/posts?${query}`, { token });
    expect(response.status, `${query}: ${response.text.slice(0, 300)}`).to.equal(200);
    return response.body as { data: Array<{ id: number }>; meta: { pagination: Record<string, number> } };
  };

  for (const { name, query, expected, start } of CASES) {
    it(`answers a deep page exactly: ${name}`, async () => {
      const page = expected.slice(start, start + 25).map((entry) => entry.id);
      expect(page, 'the case reaches past the first rows').to.have.length(25);
      // Twice: the first counts the total in the page's statement, the second takes it from the count cache.
      for (const round of ['counted', 'cached']) {
        const deep = await read(`${query}&pagination[start]=${start}&pagination[limit]=25`);
        expect(deep.data.map((entry) => entry.id), round).to.deep.equal(page);
        expect(deep.meta.pagination, round).to.deep.equal({ start, limit: 25, total: expected.length });
        const ids = page.map((id, index) => `filters[id][$in][${index}]=${id}`).join('&');
        const near = await read(`${query}&${ids}&pagination[start]=0&pagination[limit]=25`);
        expect(JSON.stringify(deep.data), round).to.equal(JSON.stringify(near.data));
      }
    });
  }

  it('answers a page mode deep page, the last one and one past the end with their totals', async () => {
    const total = live.length;
    const last = Math.ceil(total / 25);
    for (const pageNumber of [last - 1, last, last + 1]) {
      const page = await read(`sort=views:desc&filters[rating][$lte]=4&pagination[page]=${pageNumber}&pagination[pageSize]=25`);
      const ids = sorted(live, 'views', 'desc').slice((pageNumber - 1) * 25, pageNumber * 25).map((entry) => entry.id);
      expect(page.data.map((entry) => entry.id), `page ${pageNumber}`).to.deep.equal(ids);
      expect(page.meta.pagination).to.deep.equal({ page: pageNumber, pageSize: 25, pageCount: last, total });
    }
  });

  it('runs as many statements for a deep page as for a near one, ids first past DEEP_OFFSET and with a total', async () => {
    const statements = async (query: string) => {
      const sql: string[] = [];
      const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
      try {
        await read(query);
      } finally {
        unsubscribe();
      }
      // The token's look-up is the caller's, not the list's.
      return sql.filter((statement) => !/strapi_api_tokens/.test(statement));
    };
    const query = (start: number, filter: number) => `filters[views][$gte]=${filter}&sort=views:desc&populate=category&pagination[start]=${start}&pagination[limit]=25`;
    // Uncached totals: each filter value is new, so its total comes with the page (or apart on SQLite, covering-count.ts).
    const nearCounted = await statements(query(25, 1));
    const deepCounted = await statements(query(1025, 2));
    expect(deepCounted, deepCounted.join('\n')).to.have.length(nearCounted.length);
    // Cached totals: the page and its category, nothing else.
    const near = await statements(query(25, 1));
    const deep = await statements(query(1025, 2));
    expect(near, near.join('\n')).to.have.length(2);
    expect(deep, deep.join('\n')).to.have.length(2);
    const idsFirst = (sql: string) => /\) as [`"]ids[`"] inner join/i.test(sql);
    expect(idsFirst(near[0]), near[0]).to.equal(false);
    expect(idsFirst(deep[0]), deep[0]).to.equal(true);
    // A page with its total, near or deep: the window counts ids, not whole rows (rating is in no index, so SQLite too).
    for (const start of [0, 1100]) {
      const counted = await statements(`filters[rating][$lt]=${10 + start}&sort=id&pagination[start]=${start}&pagination[limit]=25`);
      expect(counted, counted.join('\n')).to.have.length(1);
      expect(idsFirst(counted[0]) && /count\(\*\) over \(\)/i.test(counted[0]), counted[0]).to.equal(true);
    }
  });

  it('starts a deep page of a list in id order after a mark, and reads the marks again after a write here or in another app', async () => {
    let entries = live.filter((entry) => entry.rating !== 1);
    const other = await startApp({ dialect, files: FILES, database: app.database });
    const remove = async (on: TestApp, id: number) => {
      expect((await on.request('DELETE', `/api/posts/${id}`, { token })).status).to.equal(200);
      entries = entries.filter((entry) => entry.id !== id);
    };
    try {
      for (const direction of ['asc', 'desc'] as const) {
        const ids = () => sorted(entries, 'id', direction).map((entry) => entry.id);
        // Whether each read of a page at `start` began after a mark (`t0.id > ?`, or `<` descending), checking its answer.
        const marked = async (start: number): Promise<boolean> => {
          const sql: string[] = [];
          const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
          try {
            const page = await read(`filters[rating][$ne]=1&sort=id:${direction}&pagination[start]=${start}&pagination[limit]=25`);
            expect(page.data.map((entry) => entry.id), `${direction}, from ${start}`).to.deep.equal(ids().slice(start, start + 25));
            expect(page.meta.pagination.total).to.equal(entries.length);
          } finally {
            unsubscribe();
          }
          return sql.some((statement) => /[`"]t0[`"]\.[`"]id[`"] [<>] /.test(statement));
        };
        // The page with its total, then the first deep page under that stamp: as asked. Then from a mark.
        expect([await marked(1000), await marked(1000), await marked(1000)]).to.deep.equal([false, false, true]);
        for (const start of [1499, 1500, 1501, 1999, entries.length - 5, entries.length + 10]) expect(await marked(start), `from ${start}`).to.equal(true);
        expect(await marked(999), 'before DEEP_OFFSET').to.equal(false);
        // A write here: counted again, and marked again from the second deep page after it.
        await remove(app, ids()[10]!);
        expect([await marked(1500), await marked(1500), await marked(1500)]).to.deep.equal([false, false, true]);
        // A write in another app on the same database: in the next answer at once.
        await remove(other, ids()[20]!);
        await marked(1500);
        await marked(1500);
        expect(await marked(1500)).to.equal(true);
      }
    } finally {
      await other.stop({ keepDatabase: true });
    }
  });

  it("plans the id step on an index alone where one holds the step's columns", async () => {
    const plan = async (sql: string) => (await app.app.db.sql.raw(`${dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${sql}`)).map((row) => JSON.stringify(row)).join('\n');
    // The id step as the reader writes it, for `filters[views][$gte]=20&sort=views` in preview (no published_at filter).
    const byViews = 'SELECT t0.id FROM posts AS t0 WHERE t0.views >= 20 ORDER BY t0.views ASC, t0.id ASC LIMIT 25 OFFSET 1000';
    if (dialect === 'sqlite') {
      // Every SQLite index holds the rowid (the id): the views index alone answers.
      expect(await plan(byViews)).to.match(/COVERING INDEX posts_views_index/);
      // Live, by id with its total: published_at's index alone, its ids sorted (the table is not read).
      expect(await plan('SELECT t0.id, count(*) over () AS __total FROM posts AS t0 WHERE t0.published_at IS NOT NULL ORDER BY t0.id ASC LIMIT 25 OFFSET 1000')).to.match(
        /COVERING INDEX posts_published_at_index/,
      );
    } else if (dialect === 'mysql') {
      // InnoDB's secondary indexes hold the primary key: the views index alone answers ("Using index").
      const explained = await plan(byViews);
      expect(explained).to.match(/"key":"posts_views_index"/);
      expect(explained).to.match(/Using index/);
    } else {
      // PostgreSQL's indexes do not hold the id: only the primary key answers an id step alone.
      expect(await plan('SELECT t0.id FROM posts AS t0 ORDER BY t0.id ASC LIMIT 25 OFFSET 1000')).to.match(/Index Only Scan using posts_pkey/);
    }
  });
});

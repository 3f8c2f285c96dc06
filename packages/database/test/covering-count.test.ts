import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * A list's total is the number of entries its filters keep, whichever index
 * the count reads: on SQLite a count whose filters only look at columns one
 * index holds reads that index alone (covering-count.ts). Every case is
 * checked against the seed itself, live and preview, on every database.
 */
const FILES = {
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'post' },
    options: { draftAndPublish: true },
    pluginOptions: { tessera: { indexes: [['publishedAt', 'views']] } },
    attributes: {
      views: { type: 'integer', index: true },
      rating: { type: 'integer' },
      title: { type: 'string' },
    },
  },
};

interface Seed {
  id: number;
  views: number | null;
  rating: number;
  published: boolean;
}

type Case = [name: string, filters: Record<string, unknown>, keeps: (entry: Seed) => boolean];

const CASES: Case[] = [
  ['no filter', {}, () => true],
  ['views >= 10', { views: { $gte: 10 } }, (e) => e.views !== null && e.views >= 10],
  ['views < 3', { views: { $lt: 3 } }, (e) => e.views !== null && e.views < 3],
  ['views between 20 and 40', { views: { $between: [20, 40] } }, (e) => e.views !== null && e.views >= 20 && e.views <= 40],
  ['views null', { views: { $null: true } }, (e) => e.views === null],
  ['views > 90 or < 5', { $or: [{ views: { $gt: 90 } }, { views: { $lt: 5 } }] }, (e) => e.views !== null && (e.views > 90 || e.views < 5)],
  ['not views >= 50', { $not: { views: { $gte: 50 } } }, (e) => e.views !== null && e.views < 50],
  ['views in', { views: { $in: [7, 14, 21] } }, (e) => e.views !== null && [7, 14, 21].includes(e.views)],
  ['rating (no index)', { rating: { $eq: 2 } }, (e) => e.rating === 2],
  ['views and rating', { views: { $gte: 30 }, rating: { $ne: 1 } }, (e) => e.views !== null && e.views >= 30 && e.rating !== 1],
  ['id and views', { id: { $lt: 120 }, views: { $gt: 10 } }, (e) => e.id < 120 && e.views !== null && e.views > 10],
];

const UID = 'api::post.post';

eachDatabase('list totals through covering indexes', (dialect) => {
  let app: TestApp;
  const seed: Seed[] = [];

  before(async () => {
    app = await startApp({ dialect, files: FILES, noListen: true });
    await app.app.db.transaction(async () => {
      for (let n = 0; n < 240; n++) {
        const views = n % 11 === 0 ? null : (n * 37) % 100;
        const published = n % 3 !== 0;
        const entry = await app.app.entityService.create(UID, { data: { views, rating: n % 5, title: `Post ${n}`, publishedAt: published ? new Date().toISOString() : null } });
        seed.push({ id: Number(entry.id), views, rating: n % 5, published });
      }
    });
  });
  after(() => app?.stop());

  for (const publicationState of ['live', 'preview'] as const) {
    it(`counts exactly what the filters keep (${publicationState})`, async () => {
      for (const [name, filters, keeps] of CASES) {
        const expected = seed.filter((entry) => (publicationState === 'preview' || entry.published) && keeps(entry)).length;
        expect(await app.app.entityService.count(UID, { filters, publicationState }), name).to.equal(expected);
        const page = await app.app.entityService.findPage(UID, { filters, publicationState, pageSize: 7 });
        expect(page.pagination.total, `${name}, findPage`).to.equal(expected);
      }
    });
  }

  if (dialect === 'sqlite') {
    it('counts through the index that holds every filtered column, and leaves the rest to the planner', async () => {
      const countSql = async (filters: Record<string, unknown>, publicationState: 'live' | 'preview') => {
        const sql: string[] = [];
        const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
        try {
          await app.app.entityService.count(UID, { filters, publicationState });
        } finally {
          unsubscribe();
        }
        expect(sql, JSON.stringify(filters)).to.have.length(1);
        return sql[0];
      };
      // Live: published_at is filtered too, and only the declared pair holds both.
      expect(await countSql({ views: { $gte: 10 } }, 'live')).to.include('indexed by `posts_published_at_views_index`');
      // Preview: the views index holds the only filtered column, and seeks to its range.
      expect(await countSql({ views: { $gte: 10 } }, 'preview')).to.include('indexed by `posts_views_index`');
      // Only published_at: the smallest index that holds it.
      expect(await countSql({}, 'live')).to.include('indexed by `posts_published_at_index`');
      // A column no index holds, the id (the rowid serves it), or no filter at all: the planner's choice.
      for (const [filters, state] of [[{ rating: { $eq: 2 } }, 'live'], [{ id: { $lt: 5 } }, 'preview'], [{}, 'preview']] as const) {
        expect(await countSql(filters, state)).not.to.include('indexed by');
      }
      // And SQLite reads that index alone: no table row per entry.
      const plan = await app.app.db.sql.raw('EXPLAIN QUERY PLAN SELECT count(*) FROM posts AS t0 INDEXED BY posts_published_at_views_index WHERE t0.published_at IS NOT NULL AND t0.views >= 10');
      expect(plan.map((row) => String(row.detail)).join(' | ')).to.match(/COVERING INDEX posts_published_at_views_index/);
    });
  }
});

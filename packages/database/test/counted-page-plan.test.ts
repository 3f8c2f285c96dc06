/**
 * A page read with its total (`count(*) over ()`) on PostgreSQL and MariaDB reads the matching rows by the filter's
 * best access path, then sorts them (deep-page.ts `pageIds`). The window makes every matching row be read before
 * the first id comes out, yet both planners, given the counted rows and the sort's LIMIT in one query block, plan
 * for stopping early:
 * - PostgreSQL walked the sort column's index over every row of the table, even where the search option's trigram
 *   index holds the few matches (60,000 articles: every row touched; now the matches);
 * - MariaDB 10.11 traded the table scan it first chose for a range over `published_at` holding two rows in three,
 *   each then fetched by primary key (7 ms against 4 at 10,000 articles; now the scan).
 * `EXPLAIN ANALYZE` / `ANALYZE FORMAT=JSON` of the statement Tessera runs shows which.
 *
 * SQLite plans the counted page from the filter (deep-pages.test.ts checks its plans).
 */
import { expect } from 'chai';
import { DIALECTS, mariadbTableAccesses, planNodes, planOf, planRowsTouched, startApp, type TestApp } from '@tessera/testing';

const ARTICLES = 60_000;

/**
 * The `$containsi=125` page sorted by views, with its total, over `articles` seeded 1..`count` (one in three a
 * draft): its answer checked, and the statement that counted it, as Tessera ran it.
 */
async function countedSearchPage(app: TestApp, token: string, count: number): Promise<{ sql: string; bindings: readonly unknown[] }> {
  const statements: Array<{ sql: string; bindings: readonly unknown[] }> = [];
  const stop = app.app.db.sql.onQuery((sql, bindings) => statements.push({ sql, bindings }));
  const response = await app.get('/api/articles?filters[title][$containsi]=125&sort=views:desc&fields[0]=title', { token });
  stop();
  expect(response.status, response.text.slice(0, 300)).to.equal(200);
  // Article 125, 1125, 1250..1259, 12500.., …: the ids holding "125", less the drafts.
  const expected = Array.from({ length: count }, (_, i) => i + 1).filter((n) => String(n).includes('125') && n % 3 !== 0);
  expect(response.body.meta.pagination.total).to.equal(expected.length);
  const page = statements.find((statement) => /count\(\*\) over \(\)/.test(statement.sql));
  if (!page) throw new Error(`no counted statement among:\n${statements.map((statement) => statement.sql).join('\n')}`);
  return page;
}

const FILES = {
  'src/api/article/content-types/article/schema.json': {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'article' },
    options: { draftAndPublish: true },
    pluginOptions: { tessera: { search: ['title'], indexes: [['publishedAt', 'views']] } },
    attributes: { title: { type: 'string' }, views: { type: 'integer', index: true } },
  },
};

(DIALECTS.includes('postgres') ? describe : describe.skip)('a page with its total on PostgreSQL: the matches read, then sorted [postgres]', () => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await startApp({ dialect: 'postgres', files: FILES });
    token = await app.fullAccessToken();
    // "Article <n>: …" as the bench seeds them; one in three a draft; views spread over 0..999.
    await app.app.db.sql.raw(
      `INSERT INTO articles (title, views, created_at, updated_at, published_at)
        SELECT 'Article ' || n || ': a title', (n * 37) % 1000, now(), now(), CASE WHEN n % 3 = 0 THEN NULL ELSE now() END
        FROM generate_series(1, ${ARTICLES}) AS n`,
    );
    await app.app.db.sql.raw('VACUUM ANALYZE articles');
  });
  after(() => app?.stop());

  it('reads the trigram index’s matches for a counted page sorted by views, not every row through the views index', async () => {
    const page = await countedSearchPage(app, token, ARTICLES);
    // The driver's numbered parameters ($1, $2: in order) as knex's placeholders.
    const [row] = await app.app.db.sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${page.sql.replace(/\$\d+/g, '?')}`, [...page.bindings]);
    const root = planOf(row);
    const plan = planNodes(root).join('\n');
    expect(plan).to.match(/articles_title_trgm/);
    expect(plan).to.not.match(/articles_views_index|articles_published_at_views/);
    // The matches (and the index entries naming them), a few hundred rows; the walk touched all 60,000.
    expect(planRowsTouched(root), plan).to.be.below(2_000);
  });
});

/** 0..99,999 from five joined digit tables: one statement, no recursion limit (MySQL's is 1,000 by default). */
const DIGITS = '(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
const NUMBERS = `(SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS n FROM ${DIGITS} a, ${DIGITS} b, ${DIGITS} c, ${DIGITS} e, ${DIGITS} f) numbers`;
const MARIADB_ARTICLES = 10_000;

(DIALECTS.includes('mysql') ? describe : describe.skip)('a page with its total on MariaDB: the table scanned once, not a range of two rows in three [mysql]', () => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await startApp({ dialect: 'mysql', files: { 'src/api/article/content-types/article/schema.json': { ...FILES['src/api/article/content-types/article/schema.json'], pluginOptions: {}, attributes: { title: { type: 'string' }, body: { type: 'text' }, views: { type: 'integer' } } } } });
    token = await app.fullAccessToken();
    // As the bench seeds them: "Article <n>: …" with a body, one in three a draft, views spread over 0..999.
    await app.app.db.sql.raw(
      `INSERT INTO articles (title, body, views, created_at, updated_at, published_at)
        SELECT CONCAT('Article ', n, ': a title'), REPEAT('Lorem ipsum dolor sit amet. ', 25), (n * 37) % 1000, NOW(), NOW(), CASE WHEN n % 3 = 0 THEN NULL ELSE NOW() END
        FROM ${NUMBERS} WHERE n BETWEEN 1 AND ${MARIADB_ARTICLES} ORDER BY n`,
    );
    await app.app.db.sql.raw('ANALYZE TABLE articles');
  });
  after(() => app?.stop());

  it('scans the table for a counted `$containsi` page sorted by views, rather than visiting two rows in three by the published_at index', async () => {
    const page = await countedSearchPage(app, token, MARIADB_ARTICLES);
    const [row] = await app.app.db.sql.raw(`ANALYZE FORMAT=JSON ${page.sql}`, [...page.bindings]);
    const reads = mariadbTableAccesses(row).filter((access) => access.table === 't0' && access.access !== 'eq_ref');
    expect(reads.map((access) => `${access.access} ${access.key}`), JSON.stringify(reads)).to.deep.equal(['ALL ']);
  });
});

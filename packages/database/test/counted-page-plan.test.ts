/**
 * A page read with its total (`count(*) over ()`) on PostgreSQL reads the matching rows by the filter's best
 * access path, then sorts them (deep-page.ts `pageIds`). The window makes every matching row be read before the
 * first id comes out, yet PostgreSQL's planner costs `LIMIT 25` over it as if it could stop early: with the counted
 * rows and the sort in one query it walked the sort column's index over every row of the table, even where the
 * search option's trigram index holds the few matches. At 60,000 articles that walk touched every row; the page now
 * touches the matches, which `EXPLAIN ANALYZE` of the statement Tessera runs shows.
 *
 * PostgreSQL only: SQLite and MariaDB plan the counted page from the filter (deep-pages.test.ts checks their plans).
 */
import { expect } from 'chai';
import { DIALECTS, planNodes, planOf, planRowsTouched, startApp, type TestApp } from '@tessera/testing';

const ARTICLES = 60_000;

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
    const statements: Array<{ sql: string; bindings: readonly unknown[] }> = [];
    const stop = app.app.db.sql.onQuery((sql, bindings) => statements.push({ sql, bindings }));
    const response = await app.get('/api/articles?filters[title][$containsi]=125&sort=views:desc&fields[0]=title', { token });
    stop();
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    // Article 125, 1125, 1250..1259, 12500.., …: the ids holding "125", less the drafts.
    const expected = Array.from({ length: ARTICLES }, (_, i) => i + 1).filter((n) => String(n).includes('125') && n % 3 !== 0);
    expect(response.body.meta.pagination.total).to.equal(expected.length);

    const page = statements.find((statement) => /count\(\*\) over \(\)/.test(statement.sql));
    expect(page, statements.map((statement) => statement.sql).join('\n')).to.not.equal(undefined);
    // The driver's numbered parameters ($1, $2: in order) as knex's placeholders.
    const [row] = await app.app.db.sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${page!.sql.replace(/\$\d+/g, '?')}`, [...page!.bindings]);
    const root = planOf(row);
    const plan = planNodes(root).join('\n');
    expect(plan).to.match(/articles_title_trgm/);
    expect(plan).to.not.match(/articles_views_index|articles_published_at_views/);
    // The matches (and the index entries naming them), a few hundred rows; the walk touched all 60,000.
    expect(planRowsTouched(root), plan).to.be.below(2_000);
  });
});

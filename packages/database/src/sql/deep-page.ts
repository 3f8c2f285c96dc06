/**
 * Deep pages: the page's ids first, then its rows.
 *
 * `LIMIT 25 OFFSET 6500` makes every database produce the 6,500 skipped rows
 * before it drops them, and `count(*) over ()` (a page with its total) keeps
 * every matching row until the window is counted. Selecting only the ids in
 * that step, then the page's rows by id, carries one column through the walk
 * instead of the whole row — and where an index holds the filtered and sorted
 * columns, the walk reads that index alone, never the table:
 *
 *   SELECT [ids.__total,] t0.… FROM (
 *     SELECT t0.id [, count(*) over () AS __total] FROM t AS t0
 *     WHERE <filters> ORDER BY <sort>, id LIMIT ? OFFSET ?
 *   ) AS ids INNER JOIN t AS t0 ON t0.id = ids.id ORDER BY <sort>, id
 *
 * One statement, so a request runs as many queries as before, and no write can
 * land between the ids and their rows. The outer ORDER BY is the same total
 * order (the sort always ends with the id) over the page's rows only; it
 * names the entry's own columns, so sorts through relations keep the one-step
 * form (their joins would be needed twice).
 *
 * When: a page that carries its total, at any offset, and any page from
 * DEEP_OFFSET on — on every database (both forms timed on the bench's seed,
 * 10,000 articles, published only; docs/benchmarks.md). `count(*) over ()`
 * holds every matching row until the window is counted (SQLite copies them
 * all into a temporary table): a first page with its total took 24–44 ms one
 * step and 3–8 ms ids first. Past DEEP_OFFSET the skipped rows dominate: at
 * page 260 by id 2.9 → 2.2 ms (SQLite, which skips OFFSET rows before reading
 * their columns), 6 → 3 (PostgreSQL), 12–18 → 2–3 (MariaDB, which copies each
 * skipped row out of InnoDB first), and a sort no index serves sorts ids
 * instead of rows (`views:desc`: 116 → 5–13, 15–22 → 6, 20 → 10 ms). Nearer
 * pages without their total gain little, and on PostgreSQL they lost half a
 * millisecond at offset 150: they stay one step. The id step reads an index
 * alone where one holds the filtered and sorted columns (SQLite and InnoDB
 * indexes hold the id; on PostgreSQL only the primary key does). A live list
 * sorted by id still visits every skipped row on SQLite (the table is the id's
 * index) and PostgreSQL (no index holds both the id and `published_at`): there
 * both forms cost the same walk.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../connection/config';
import type { Page, ReadPlan } from '../query/plan';

/** Pages without their total that start before this row stay one step (see above). */
export const DEEP_OFFSET = 1000;

/** The derived table of the page's ids. */
export const IDS = 'ids';

/** Whether `page` of `query` is read ids first (see above). */
export function idsFirst(query: ReadPlan, page: Page | undefined, counted: boolean): boolean {
  if (page === undefined || page.limit === 0 || query.sort.some((item) => item.path.length > 0)) return false;
  return counted || page.offset >= DEEP_OFFSET;
}

/**
 * The ids step: `root`'s ids matching the filters (`filtered`), sorted and paged (`paged`), with the total when
 * `counted`. A total makes PostgreSQL read every matching row before the first id (the window counts them all), yet
 * its planner costs `LIMIT 25` over the window as if it could stop early: it walks an index in the sort's order,
 * visiting every row by index, instead of reading the matches and sorting them. Measured at 200,000 articles with the
 * search option on: a `%125%` page sorted by `views` walked the views index over all 200,000 rows (454 ms) while
 * the trigram index holds the 1,065 matches. MariaDB 10.11 errs the same way from the other side: planning the
 * block's ORDER BY … LIMIT again, it trades the full scan it first chose for a range over `published_at` (two rows
 * in three, each then fetched by primary key): a `%125%` page sorted by views over 10,000 articles took 7 ms against
 * 4 for the scan. So on both the counted rows are a subquery (planned for reading all of them, a window never being
 * flattened into its parent) that this step sorts and pages; it carries the sort's own columns under the same alias,
 * so the sort is written once. (An unfiltered live list by id, which the published_at index covers, pays about half a
 * millisecond more on MariaDB for it; its total is cached after the first page.)
 */
export function pageIds(knex: Knex, query: ReadPlan, root: string, dialect: Dialect, counted: boolean, filtered: (qb: Knex.QueryBuilder) => void, paged: (qb: Knex.QueryBuilder) => Knex.QueryBuilder): Knex.QueryBuilder {
  const ids = knex.from({ [root]: query.entity.tableName }).select(`${root}.id`);
  filtered(ids);
  if (!counted) return paged(ids);
  ids.select(knex.raw('count(*) over () as ??', ['__total']));
  if (dialect === 'sqlite') return paged(ids);
  const sorted = new Set(query.sort.map((item) => item.field.column));
  sorted.delete('id');
  for (const column of sorted) ids.select(`${root}.${column}`);
  return paged(knex.from(ids.as(root)).select(`${root}.id`, `${root}.__total`));
}

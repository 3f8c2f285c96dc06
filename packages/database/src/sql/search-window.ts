/**
 * SQLite: a first page of a search, taken from the head of the sort order.
 *
 * A search-indexed text match (`$containsi=latency`) finds its rows through
 * the FTS5 trigram table: cheap when few rows match, but a pattern that
 * matches 10% of 200,000 rows hands 20,000 ids to the page query, which then
 * sorts them all to keep 25. Walking the sort's index and testing each row
 * stops after the first 25 matches — cheap for exactly those patterns, and a
 * full scan for rare ones. So a page is first looked for among the first
 * WINDOW rows of the whole table in sort order (the sort's index serves them,
 * lazily), with the plain match and every other filter applied on top:
 *
 *   SELECT … FROM (SELECT * FROM t ORDER BY <sort> LIMIT WINDOW) AS t0
 *   WHERE <filters, no search table> ORDER BY <sort> LIMIT ? OFFSET ?
 *
 * Why the answer is exact: the window is a prefix of the table in the page's
 * own total order (the sort always ends with id), so if it holds
 * offset + limit matching rows, the first offset + limit matches of the whole
 * table are those. When it holds fewer, the caller runs the indexed query as
 * before: a rare pattern pays one short, bounded walk more.
 *
 * When how many rows match is known before the page (a page asked with its
 * total counts them first, through the search table; a total may be held),
 * the window is asked only where it pays, and made as long as the page needs
 * (windowFor): a rare pattern's page through the search table reads few rows,
 * and the window would walk all of its rows in vain (at 10,000 articles, a
 * pattern matching 66: 4.9 ms for the window's walk, 0.9 ms for the page
 * through the search table); a common one's page is reached after a few
 * thousand rows of the sort order, where the search table would hand over
 * every match (at 200,000 articles, `99` matches 5,600: 11 ms through the
 * search table, about 1 ms walked).
 */
import type { Knex } from 'knex';
import type { ReadPlan, Page } from '../query/plan';

/** Rows of the sort order looked at before the search table is asked, when how many rows match is not known. */
export const WINDOW = 1000;
/** The longest window a known density may ask for: past it, walking would cost about what the search table does. */
const MAX_WINDOW = 65_536;
/** Deeper pages need a denser pattern than the window can promise: they go straight to the search table. */
const MAX_PAGE_END = 100;

/**
 * Whether `query` may be served from the window: its statement uses a search
 * table (`usesSearchIndex`), and an index walks its sort — own columns only,
 * led by the id or by the first column of a declared index.
 */
export function windowServesSort(query: ReadPlan, usesSearchIndex: boolean): boolean {
  if (!usesSearchIndex || query.sort.some((item) => item.path.length > 0)) return false;
  const first = query.sort[0].field.column;
  return first === 'id' || query.entity.indexes.some((columns) => columns[0] === first);
}

/** Whether this page is shallow enough for the window. */
export function windowCoversPage(page: Page | undefined): page is Page & { limit: number } {
  return page?.limit !== undefined && page.limit > 0 && page.offset + page.limit <= MAX_PAGE_END;
}

/**
 * The window to look for a page of a pattern matching `matching` of about `tableRows` rows in, or null when the search
 * table serves that page for less. At that density the page's end (offset + limit matches) is about `walk` rows into
 * the sort order; walking them is worth it when they are fewer than the matches a page through the search table reads
 * and sorts. The window is twice the walk (so it very likely holds the page), a power of two (its statement is kept
 * per length), at least WINDOW.
 */
export function windowFor(page: Page & { limit: number }, matching: number, tableRows: number): number | null {
  if (matching <= page.offset) return null;
  const walk = ((page.offset + page.limit) * tableRows) / matching;
  if (walk > matching) return null;
  const length = Math.max(WINDOW, 2 ** Math.ceil(Math.log2(2 * walk)));
  return length <= MAX_WINDOW ? length : null;
}

/**
 * The table's highest id, as `end`: at least its number of rows (ids are not reused), read from the primary key's
 * last entry. Deleted rows make it an overestimate, which only makes windowFor more cautious.
 */
export function tableEnd(knex: Knex, tableName: string): Knex.QueryBuilder {
  return knex.from(tableName).max({ end: 'id' });
}

/** The first `length` rows of the table in the query's sort order, as a derived table to select from. */
export function windowOf(knex: Knex, query: ReadPlan, alias: string, length: number, sort: (qb: Knex.QueryBuilder) => void): Knex.QueryBuilder {
  const head = knex.from({ [alias]: query.entity.tableName }).select(`${alias}.*`);
  sort(head);
  return head.limit(length).as(alias);
}

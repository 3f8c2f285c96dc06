/**
 * SQLite, a searched column: the ids whose indexed copy (search-sync.ts)
 * holds the longest ASCII run of a text match's value, found through the FTS5
 * trigram table instead of a scan of the content table. Always a superset of
 * the rows the exact match keeps (search-sync.ts says why), so the caller keeps
 * the exact match on top.
 *
 * - A run of 3+ characters: `LIKE '%run%'` on the trigram table, which FTS5
 *   answers from its index.
 * - A run of 2 (a search box's `12`): shorter than a trigram, so FTS5 would
 *   scan. But every place a 2-character run occurs in the copy starts a
 *   trigram (the copy ends with two padding characters), so the rows are those
 *   holding any indexed trigram that begins with the run: one range of the
 *   FTS5 vocabulary table, which lists every trigram's places by term. At
 *   10,000 articles, `99`'s total in 0.26 ms instead of 2.9 ms for the scan,
 *   and its page sorted by views in 0.76 ms instead of 1.26 ms. A run found in
 *   many places costs more so than the scan: search-term-gate.ts chooses.
 * - A run of 1: the trigrams beginning with one character are a good part of
 *   the vocabulary, and reading their rows costs more than the scan (3.8 ms
 *   against 1.0 ms at 10,000 articles): null, scan.
 */
import type { Knex } from 'knex';
import { searchTermsTableName } from '../metadata/search-options';

/** Characters a run is made of: ASCII but LIKE's wildcards (`%`, `_`), which the copy cannot be asked for literally. */
const RUNS = /[\x00-\x24\x26-\x5e\x60-\x7f]+/g;

/**
 * The candidate ids for `value` (already lower-cased for a case-insensitive operator) in `column` of `searchTable`,
 * or null to scan: no run of 3 or more characters, and no run of 2 that `pairs` lets through (search-term-gate.ts).
 */
export function searchCandidateIds(
  knex: Knex,
  searchTable: string,
  column: string,
  value: string,
  pairs: (run: string) => boolean,
): Knex.QueryBuilder | null {
  const longest = longestRun(value);
  if (longest.length >= 3) return knex.select('rowid').from(searchTable).whereRaw('?? LIKE ?', [column, `%${longest}%`]);
  const run = pairedRun(value);
  if (run === null || !pairs(run)) return null;
  const [from, below] = trigramsBeginning(run);
  return knex.select('doc').from(searchTermsTableName(searchTable)).where('term', '>=', from).andWhere('term', '<', below).andWhere('col', column);
}

/**
 * The range of vocabulary terms that are trigrams beginning with `run`: [run, run with its last character raised)
 * (ASCII, so the raised bound sorts after all of them in the terms' byte order).
 */
export function trigramsBeginning(run: string): [from: string, below: string] {
  return [run, run[0] + String.fromCharCode(run.charCodeAt(1) + 1)];
}

/** The value's longest run of 2 characters, in lower case as the tokenizer keeps trigrams; null when it is not 2 long. */
export function pairedRun(value: string): string | null {
  const longest = longestRun(value);
  return longest.length === 2 ? longest.toLowerCase() : null;
}

function longestRun(value: string): string {
  const runs = value.match(RUNS) ?? [];
  return runs.reduce((best, run) => (run.length > best.length ? run : best), '');
}

/**
 * SQLite: whether a 2-character run of a text match is looked up through its
 * search table's trigrams (search-candidates.ts) or scanned.
 *
 * Reading a run's rows through the vocabulary costs about 1 µs per place the
 * run occurs; a scan about 0.25 µs per row. So the lookup pays only for runs
 * that occur in fewer places than a fraction of the rows: at 10,000 articles
 * titled `Article N: …`, `99` (300 places) is counted in 0.36 ms through the
 * trigrams against 2.2 ms scanned, but `ar` (14,868 places) in 15.9 ms against
 * 2.3. How often a run occurs is read from the vocabulary's per-trigram totals
 * (`<table>_search_counts`, fts5vocab 'row': about 1/25 of the lookup's cost),
 * once per table and run, and kept: it drifts with writes, which can only move
 * the choice, never an answer. A run not read yet is scanned.
 */
import type { Connection } from '../connection/connection';
import { comparisonsOf, type ReadPlan } from '../query/plan';
import { pairedRun, trigramsBeginning } from './search-candidates';
import { searchCountsTableName } from '../metadata/search-options';

/** The lookup is chosen when the run occurs in at most this share of the table's rows' places (break-even ≈ 0.22). */
const LOOKUP_SHARE = 1 / 8;
/** Runs kept per reader; past it the choices start over (a client chooses the runs). */
const MAX_RUNS = 4096;
/** The operators whose matches look candidates up (conditions.ts: the negated ones never do). */
const LOOKED_UP = new Set(['$contains', '$containsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi']);

interface PairedRun {
  key: string;
  searchTable: string;
  run: string;
}

export class SearchTermGate {
  private readonly lookups = new Map<string, boolean>();
  /** Each plan's 2-character runs on searched columns, found once: plans are kept and reused across requests. */
  private readonly runsOf = new WeakMap<ReadPlan, PairedRun[]>();

  constructor(private readonly connection: Connection) {}

  /** Whether `run` (2 characters, lower case) is looked up in `searchTable`'s trigrams: read by `prepare` first. */
  allows(searchTable: string, run: string): boolean {
    return this.lookups.get(`${searchTable}\u0000${run}`) === true;
  }

  /** Reads the choices `query`'s text matches need before its statements are built; undefined when none is missing. */
  prepare(query: ReadPlan): Promise<void> | undefined {
    if (this.connection.dialect !== 'sqlite' || !query.where) return undefined;
    let runs = this.runsOf.get(query);
    if (!runs) {
      runs = pairedRunsOf(query);
      this.runsOf.set(query, runs);
    }
    const missing = runs.filter((paired) => !this.lookups.has(paired.key));
    return missing.length === 0 ? undefined : this.read(missing);
  }

  private async read(runs: PairedRun[]): Promise<void> {
    for (const { key, searchTable, run } of runs) {
      const [from, below] = trigramsBeginning(run);
      const counts = this.connection.knex.from(searchCountsTableName(searchTable)).sum({ places: 'cnt' }).where('term', '>=', from).andWhere('term', '<', below);
      const end = this.connection.knex.from(searchTable).select('rowid').orderBy('rowid', 'desc').limit(1);
      const row = await this.connection.first(this.connection.knex.select({ places: counts, rows: end }));
      if (this.lookups.size >= MAX_RUNS) this.lookups.clear();
      this.lookups.set(key, Number(row?.places ?? 0) <= Number(row?.rows ?? 0) * LOOKUP_SHARE);
    }
  }
}

/** The 2-character runs of `query`'s text matches on searched columns, links included, each once. */
function pairedRunsOf(query: ReadPlan): PairedRun[] {
  const runs: PairedRun[] = [];
  for (const { field, operator, value } of query.where ? comparisonsOf(query.where) : []) {
    if (!field.searchTable || typeof value !== 'string' || !LOOKED_UP.has(operator)) continue;
    const run = pairedRun(operator.endsWith('i') ? value.toLowerCase() : value);
    const key = `${field.searchTable}\u0000${run}`;
    if (run !== null && !runs.some((paired) => paired.key === key)) runs.push({ key, searchTable: field.searchTable, run });
  }
  return runs;
}

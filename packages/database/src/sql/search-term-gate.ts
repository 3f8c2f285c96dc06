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
import type { Condition, ReadPlan } from '../query/plan';
import { pairedRun } from './search-candidates';
import { searchCountsTableName } from '../metadata/search-options';

/** The lookup is chosen when the run occurs in at most this share of the table's rows' places (break-even ≈ 0.22). */
const LOOKUP_SHARE = 1 / 8;
/** Runs kept per reader; past it the choices start over (a client chooses the runs). */
const MAX_RUNS = 4096;
/** The operators whose matches look candidates up (conditions.ts: the negated ones never do). */
const LOOKED_UP = new Set(['$contains', '$containsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi']);

export class SearchTermGate {
  private readonly lookups = new Map<string, boolean>();

  constructor(private readonly connection: Connection) {}

  /** Whether `run` (2 characters, lower case) is looked up in `searchTable`'s trigrams: read by `prepare` first. */
  allows(searchTable: string, run: string): boolean {
    return this.lookups.get(`${searchTable}\u0000${run}`) === true;
  }

  /** Reads the choices `query`'s text matches need before its statements are built; undefined when none is missing. */
  prepare(query: ReadPlan): Promise<void> | undefined {
    if (this.connection.dialect !== 'sqlite' || !query.where) return undefined;
    const missing = new Map<string, { searchTable: string; run: string }>();
    this.collect(query.where, missing);
    return missing.size === 0 ? undefined : this.read([...missing.values()]);
  }

  private collect(condition: Condition, missing: Map<string, { searchTable: string; run: string }>): void {
    switch (condition.kind) {
      case 'and':
      case 'or':
        for (const item of condition.items) this.collect(item, missing);
        return;
      case 'not':
        this.collect(condition.item, missing);
        return;
      case 'related':
      case 'component':
      case 'media':
        this.collect(condition.condition, missing);
        return;
      case 'compare': {
        const { field, operator, value } = condition;
        if (!field.searchTable || typeof value !== 'string' || !LOOKED_UP.has(operator)) return;
        const run = pairedRun(operator.endsWith('i') ? value.toLowerCase() : value);
        const key = `${field.searchTable}\u0000${run}`;
        if (run !== null && !this.lookups.has(key)) missing.set(key, { searchTable: field.searchTable, run });
      }
    }
  }

  private async read(runs: Array<{ searchTable: string; run: string }>): Promise<void> {
    for (const { searchTable, run } of runs) {
      const above = run[0] + String.fromCharCode(run.charCodeAt(1) + 1);
      const counts = this.connection.knex.from(searchCountsTableName(searchTable)).sum({ places: 'cnt' }).where('term', '>=', run).andWhere('term', '<', above);
      const end = this.connection.knex.from(searchTable).select('rowid').orderBy('rowid', 'desc').limit(1);
      const row = await this.connection.first(this.connection.knex.select({ places: counts, rows: end }));
      if (this.lookups.size >= MAX_RUNS) this.lookups.clear();
      this.lookups.set(`${searchTable}\u0000${run}`, Number(row?.places ?? 0) <= Number(row?.rows ?? 0) * LOOKUP_SHARE);
    }
  }
}

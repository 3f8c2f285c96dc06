/**
 * The outbox's counts by webhook and status, kept as rows change, so that
 * reading them (`/_health/webhooks`, the queue bound) costs the same with 10
 * or 10 million rows.
 *
 * Every transaction that changes a row's status also inserts its change
 * (`+1 pending`, `-1 pending +1 sending`, …) into `tessera_webhook_count_changes`:
 * an insert locks no shared row, so a content write never waits on another
 * write's counter nor deadlocks on it, and the change commits or rolls back
 * with what it counts. The dispatcher folds the changes into
 * `tessera_webhook_counts` (one row per webhook and status) at every poll, so
 * the changes table holds about one poll's worth of rows; a read adds what is
 * not folded yet. `queued` rows count as pending.
 */
import type { Database, Row } from '@tessera/database';
import { COUNT_CHANGES_TABLE, COUNTS_TABLE } from './table-names';

type Connection = Database['sql'];

export type CountedStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export interface DeliveryCounts {
  pending: number;
  sending: number;
  delivered: number;
  failed: number;
}

export interface CountChange {
  webhookKey: string;
  status: CountedStatus;
  n: number;
}

/** Changes folded per statement batch: bounds one fold's work. */
const FOLD_BATCH = 2000;

/** A read (`?` placeholders) on `connection`: in its transaction when one is open, never counted as a write. */
export function selectRows(connection: Connection, sql: string, bindings: Array<string | number> = []): Promise<Row[]> {
  return connection.all(connection.knex.raw(sql, bindings));
}

export function emptyCounts(): DeliveryCounts {
  return { pending: 0, sending: 0, delivered: 0, failed: 0 };
}

export class OutboxCounts {
  constructor(private readonly db: () => Database) {}

  /** Inserts `changes` (summed per webhook and status) on `connection`, in its current transaction. */
  async record(connection: Connection, changes: CountChange[]): Promise<void> {
    const summed = new Map<string, CountChange>();
    for (const change of changes) {
      const key = `${change.webhookKey}\u0000${change.status}`;
      const known = summed.get(key) ?? { ...change, n: 0 };
      known.n += change.n;
      summed.set(key, known);
    }
    const rows = [...summed.values()].filter((change) => change.n !== 0).map((change) => ({ webhook_key: change.webhookKey, status: change.status, n: change.n }));
    if (rows.length > 0) await connection.run(connection.knex(COUNT_CHANGES_TABLE).insert(rows));
  }

  /** Moves pending changes into the counters, a batch at a time (background; concurrent folds take disjoint rows). */
  async fold(): Promise<void> {
    const { knex, background, dialect } = this.db().sql;
    // A plain read first: an idle poll never opens a transaction (on SQLite, never takes the write lock).
    if ((await selectRows(background, `SELECT id FROM ${COUNT_CHANGES_TABLE} LIMIT 1`)).length === 0) return;
    for (;;) {
      const folded = await background.transaction(async () => {
        const lock = dialect === 'sqlite' ? '' : ' FOR UPDATE SKIP LOCKED';
        const changes = await selectRows(background, `SELECT id, webhook_key, status, n FROM ${COUNT_CHANGES_TABLE} ORDER BY id LIMIT ${FOLD_BATCH}${lock}`);
        if (changes.length === 0) return 0;
        // In one order in every process: two folds at once never wait on each other's counter rows in a cycle.
        for (const [key, n] of [...sums(changes)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          const [webhookKey, status] = key.split('\u0000') as [string, string];
          await background.run(knex(COUNTS_TABLE).insert({ webhook_key: webhookKey, status, n: 0 }).onConflict(['webhook_key', 'status']).ignore());
          await background.run(knex(COUNTS_TABLE).update({ n: knex.raw('n + ?', [n]) }).where({ webhook_key: webhookKey, status }));
        }
        const ids = changes.map((row) => Number(row.id));
        await background.run(knex(COUNT_CHANGES_TABLE).whereBetween('id', [Math.min(...ids), Math.max(...ids)]).whereIn('id', ids).delete());
        return changes.length;
      });
      if (folded < FOLD_BATCH) return;
    }
  }

  /**
   * Counts per webhook: the counters plus the changes not folded yet (a negative count, never expected, reads as 0).
   * On `connection` (the request's, for the health route: its statements are seen like any request's), or in the
   * background.
   */
  async byWebhook(connection: Connection = this.db().sql.background): Promise<Map<string, DeliveryCounts>> {
    // One statement, so one snapshot: read apart, a fold committing between the two reads (changes moved into the
    // counters) would leave its changes counted in neither (seen on MariaDB) or in both.
    const rows = await selectRows(
      connection,
      `SELECT webhook_key, status, n FROM ${COUNTS_TABLE} UNION ALL SELECT webhook_key, status, SUM(n) AS n FROM ${COUNT_CHANGES_TABLE} GROUP BY webhook_key, status`,
    );
    const result = new Map<string, DeliveryCounts>();
    for (const row of rows) {
      const status = String(row.status) as CountedStatus;
      const counts = result.get(String(row.webhook_key)) ?? emptyCounts();
      if (status in counts) counts[status] += Number(row.n);
      result.set(String(row.webhook_key), counts);
    }
    for (const counts of result.values()) for (const status of Object.keys(counts) as CountedStatus[]) counts[status] = Math.max(0, counts[status]);
    return result;
  }

  async totals(connection?: Connection): Promise<DeliveryCounts> {
    const total = emptyCounts();
    for (const counts of (await this.byWebhook(connection)).values()) for (const status of Object.keys(total) as CountedStatus[]) total[status] += counts[status];
    return total;
  }
}

function sums(changes: Row[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const row of changes) {
    const key = `${String(row.webhook_key)}\u0000${String(row.status)}`;
    result.set(key, (result.get(key) ?? 0) + Number(row.n));
  }
  return result;
}

/**
 * Brings an outbox made by an earlier Tessera to the current layout, in
 * place, on SQLite, PostgreSQL and MySQL/MariaDB:
 *
 * - the `undelivered` column (1 while a row waits or is in flight), set for
 *   the rows that are; delivered rows' `next_attempt_at` becomes their
 *   delivery time (what the prune orders by);
 * - pending rows behind an earlier undelivered row of the same entry and
 *   webhook become `queued`, so only each entry's oldest row is a claim
 *   candidate (outbox.ts);
 * - the index over undelivered rows replaces the one over every row;
 * - the counters start from the rows there are (once, when their table is
 *   made).
 *
 * Each step checks the catalog first, so a second process booting at the
 * same time, or a restart, finds it done and moves on.
 */
import type { Database } from '@tessera/database';
import { selectRows } from './outbox-counts';
import { COUNTS_TABLE, DELIVERIES_TABLE, OLD_ORDER_INDEX, UNDELIVERED_INDEX } from './table-names';

type Connection = Database['sql'];

export async function migrateOutbox(db: Database, startCounts: boolean): Promise<void> {
  const connection = db.sql;
  const { knex } = connection;
  if (!(await hasColumn(connection, DELIVERIES_TABLE, 'undelivered'))) {
    await tolerant(
      () => connection.runSchema(knex.schema.alterTable(DELIVERIES_TABLE, (table) => void table.integer('undelivered'))),
      () => hasColumn(connection, DELIVERIES_TABLE, 'undelivered'),
    );
    await connection.transaction(async () => {
      await connection.raw(`UPDATE ${DELIVERIES_TABLE} SET undelivered = 1 WHERE status IN ('pending', 'sending')`);
      await connection.raw(`UPDATE ${DELIVERIES_TABLE} SET next_attempt_at = delivered_at WHERE status = 'delivered' AND delivered_at IS NOT NULL`);
      // The derived table is materialised (MySQL may not read the table an UPDATE writes otherwise).
      await connection.raw(
        `UPDATE ${DELIVERIES_TABLE} SET status = 'queued'
          WHERE status = 'pending' AND entry_key IS NOT NULL AND id NOT IN (
            SELECT head FROM (SELECT MIN(id) AS head FROM ${DELIVERIES_TABLE} WHERE undelivered = 1 AND entry_key IS NOT NULL GROUP BY webhook_key, entry_key) heads)`,
      );
    });
  }
  if (!(await hasIndex(connection, DELIVERIES_TABLE, UNDELIVERED_INDEX))) {
    await tolerant(
      () => connection.runSchema(knex.schema.alterTable(DELIVERIES_TABLE, (table) => void table.index(['webhook_key', 'entry_key', 'undelivered', 'id'], UNDELIVERED_INDEX))),
      () => hasIndex(connection, DELIVERIES_TABLE, UNDELIVERED_INDEX),
    );
  }
  if (await hasIndex(connection, DELIVERIES_TABLE, OLD_ORDER_INDEX)) {
    await tolerant(
      () => connection.runSchema(knex.schema.alterTable(DELIVERIES_TABLE, (table) => void table.dropIndex([], OLD_ORDER_INDEX))),
      async () => !(await hasIndex(connection, DELIVERIES_TABLE, OLD_ORDER_INDEX)),
    );
  }
  if (startCounts) {
    const rows = await selectRows(connection, `SELECT webhook_key, status, COUNT(*) AS n FROM ${DELIVERIES_TABLE} GROUP BY webhook_key, status`);
    const counts = new Map<string, { webhook_key: string; status: string; n: number }>();
    for (const row of rows) {
      const status = row.status === 'queued' ? 'pending' : String(row.status);
      const key = `${String(row.webhook_key)}\u0000${status}`;
      const known = counts.get(key) ?? { webhook_key: String(row.webhook_key), status, n: 0 };
      known.n += Number(row.n);
      counts.set(key, known);
    }
    if (counts.size > 0) await connection.run(knex(COUNTS_TABLE).insert([...counts.values()]));
  }
}

/** Runs a schema change; when it fails because another process made the same change first, that is success. */
async function tolerant(change: () => Promise<void>, done: () => Promise<boolean>): Promise<void> {
  try {
    await change();
  } catch (error) {
    if (!(await done())) throw error;
  }
}

async function hasColumn(connection: Connection, table: string, column: string): Promise<boolean> {
  if (connection.dialect === 'sqlite') return (await selectRows(connection, `SELECT name FROM pragma_table_info(?) WHERE name = ?`, [table, column])).length > 0;
  const schema = connection.dialect === 'mysql' ? 'DATABASE()' : 'current_schema()';
  return (await selectRows(connection, `SELECT 1 FROM information_schema.columns WHERE table_schema = ${schema} AND table_name = ? AND column_name = ?`, [table, column])).length > 0;
}

async function hasIndex(connection: Connection, table: string, index: string): Promise<boolean> {
  if (connection.dialect === 'sqlite') return (await selectRows(connection, `SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name = ?`, [table, index])).length > 0;
  if (connection.dialect === 'mysql') {
    return (await selectRows(connection, 'SELECT 1 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name = ?', [table, index])).length > 0;
  }
  return (await selectRows(connection, 'SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND indexname = ?', [table, index])).length > 0;
}

/**
 * Fixed-window counters in a table of the app's database, so every process on
 * it counts against the same limit (users-permissions' rate limits). One row
 * per key — `key`, `hits`, `reset_at` — bumped by one atomic upsert, so
 * concurrent hits never lose a count. The owner declares the table
 * (`windowCounterTable`) and the schema sync creates it; the SQL per dialect
 * lives here, not in the plugin.
 */
import type { Connection } from '../connection/connection';
import type { TableDefinition } from '../schema/declared-tables';

export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** When the window ends (epoch milliseconds). */
  resetAt: number;
}

/** The table a set of window counters lives in. */
export function windowCounterTable(name: string): TableDefinition {
  return {
    name,
    columns: [
      // `key` is a reserved word on MySQL: every statement below quotes it as an identifier (`??`).
      { name: 'key', type: 'string', length: 512, primaryKey: true },
      { name: 'hits', type: 'integer', notNull: true },
      { name: 'reset_at', type: 'biginteger', notNull: true },
    ],
  };
}

export class WindowCounters {
  constructor(
    private readonly connection: Connection,
    private readonly table: string,
  ) {}

  /** Counts a hit on `key`: a window that has ended starts again at 1 and ends `windowMs` from `now`. */
  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const { connection, table } = this;
    if (connection.dialect === 'mysql') return this.hitMysql(key, windowMs, now);
    // One statement: atomic on SQLite and PostgreSQL.
    const [row] = await connection.raw(
      `INSERT INTO ?? (??, hits, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (??) DO UPDATE SET
         hits = CASE WHEN ??.reset_at <= ? THEN 1 ELSE ??.hits + 1 END,
         reset_at = CASE WHEN ??.reset_at <= ? THEN ? ELSE ??.reset_at END
       RETURNING hits, reset_at`,
      [table, 'key', key, now + windowMs, 'key', table, now, table, table, now, now + windowMs, table],
    );
    return { count: Number(row.hits), resetAt: Number(row.reset_at) };
  }

  /** Deletes the windows that ended by `now`. */
  async sweep(now: number): Promise<void> {
    await this.connection.raw(`DELETE FROM ?? WHERE reset_at <= ?`, [this.table, now]);
  }

  /**
   * MySQL/MariaDB: no RETURNING, so the upsert and the read share a transaction (the upsert's row lock keeps
   * other hits out until the count is read). ON DUPLICATE KEY UPDATE assigns left to right: `hits` is decided
   * on the old `reset_at`, which is assigned last.
   */
  private hitMysql(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const { connection, table } = this;
    return connection.transaction(async () => {
      await connection.raw(
        `INSERT INTO ?? (??, hits, reset_at) VALUES (?, 1, ?)
         ON DUPLICATE KEY UPDATE hits = IF(reset_at <= ?, 1, hits + 1), reset_at = IF(reset_at <= ?, ?, reset_at)`,
        [table, 'key', key, now + windowMs, now, now, now + windowMs],
      );
      const [row] = await connection.raw(`SELECT hits, reset_at FROM ?? WHERE ?? = ?`, [table, 'key', key]);
      return { count: Number(row.hits), resetAt: Number(row.reset_at) };
    });
  }
}

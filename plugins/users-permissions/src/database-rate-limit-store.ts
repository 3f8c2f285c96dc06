/**
 * Rate-limit counters in the app's database, so every process on it — N
 * workers, several hosts on one PostgreSQL, workers sharing a SQLite file —
 * counts against the same limit. One fixed window per key in the
 * `tessera_rate_limits` table (a Tessera addition; Strapi's tables are not
 * touched), bumped by a single atomic upsert, so concurrent hits never lose a
 * count. Expired windows are deleted now and then. The plugin declares the
 * table at `register` (RATE_LIMIT_TABLE): the schema sync creates it.
 */
import type { App } from '@tessera/core';
import type { TableDefinition } from '@tessera/database';
import type { RateLimitHit, RateLimitStore } from './rate-limit';

const TABLE = 'tessera_rate_limits';

/** `key` is a reserved word on MySQL: the statements below quote it as an identifier (`??`). */
export const RATE_LIMIT_TABLE: TableDefinition = {
  name: TABLE,
  columns: [
    { name: 'key', type: 'string', length: 512, primaryKey: true },
    { name: 'hits', type: 'integer', notNull: true },
    { name: 'reset_at', type: 'biginteger', notNull: true },
  ],
};

export class DatabaseRateLimitStore implements RateLimitStore {
  private nextSweep = 0;

  constructor(private readonly app: () => App) {}

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const connection = this.app().db.connection;
    if (now >= this.nextSweep) {
      this.nextSweep = now + windowMs;
      await connection.raw(`DELETE FROM ?? WHERE reset_at <= ?`, [TABLE, now]);
    }
    if (connection.dialect === 'mysql') return this.hitMysql(key, windowMs, now);
    // A window that has ended starts again at 1; otherwise the count goes up. One statement: atomic on both databases.
    const [row] = await connection.raw(
      `INSERT INTO ?? (key, hits, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN ??.reset_at <= ? THEN 1 ELSE ??.hits + 1 END,
         reset_at = CASE WHEN ??.reset_at <= ? THEN ? ELSE ??.reset_at END
       RETURNING hits, reset_at`,
      [TABLE, key, now + windowMs, TABLE, now, TABLE, TABLE, now, now + windowMs, TABLE],
    );
    return { count: Number(row.hits), resetAt: Number(row.reset_at) };
  }

  /**
   * MySQL/MariaDB: no RETURNING, so the upsert and the read share a transaction (the upsert's row lock keeps
   * other hits out until the count is read). ON DUPLICATE KEY UPDATE assigns left to right: `hits` is decided
   * on the old `reset_at`, which is assigned last.
   */
  private async hitMysql(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const connection = this.app().db.connection;
    return connection.transaction(async () => {
      await connection.raw(
        `INSERT INTO ?? (??, hits, reset_at) VALUES (?, 1, ?)
         ON DUPLICATE KEY UPDATE hits = IF(reset_at <= ?, 1, hits + 1), reset_at = IF(reset_at <= ?, ?, reset_at)`,
        [TABLE, 'key', key, now + windowMs, now, now, now + windowMs],
      );
      const [row] = await connection.raw(`SELECT hits, reset_at FROM ?? WHERE ?? = ?`, [TABLE, 'key', key]);
      return { count: Number(row.hits), resetAt: Number(row.reset_at) };
    });
  }
}

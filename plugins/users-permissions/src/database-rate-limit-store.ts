/**
 * Rate-limit counters in the app's database, so every process on it — N
 * workers, several hosts on one PostgreSQL, workers sharing a SQLite file —
 * counts against the same limit. One fixed window per key in the
 * `tessera_rate_limits` table (a Tessera addition; Strapi's tables are not
 * touched), bumped by a single atomic upsert, so concurrent hits never lose a
 * count (the database package's window counters). Expired windows are
 * deleted now and then.
 */
import type { App } from '@tessera/core';
import { windowCounterTable } from '@tessera/database';
import type { RateLimitHit, RateLimitStore } from './rate-limit';

const TABLE = 'tessera_rate_limits';

/** Where the counters live; the plugin declares it at `register`, and the schema sync creates it. */
export const RATE_LIMIT_TABLE = windowCounterTable(TABLE);

export class DatabaseRateLimitStore implements RateLimitStore {
  private nextSweep = 0;

  constructor(private readonly app: () => App) {}

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const counters = this.app().db.windowCounters(TABLE);
    if (now >= this.nextSweep) {
      this.nextSweep = now + windowMs;
      await counters.sweep(now);
    }
    return counters.hit(key, windowMs, now);
  }
}

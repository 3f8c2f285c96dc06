/** What a pool hands out (pool.ts, sqlite-writer.ts): one connection, exclusively ours until released. */

export interface Lease {
  /** The driver's connection: a better-sqlite3 Database, a pg client or a mysql2 connection. */
  readonly raw: unknown;
  /** Hands the connection back; `broken` (it failed as unavailable) drops it instead. */
  release(broken: boolean): void;
}

export interface ConnectionPool {
  acquire(): Promise<Lease>;
  destroy(): Promise<void>;
}

/** The message `isUnavailable` knows (unavailable.ts): no connection came within the acquire timeout. */
export function acquireTimeout(ms: number): Error {
  return new Error(`Timeout acquiring a connection (${ms} ms): the pool is probably full or the database down`);
}

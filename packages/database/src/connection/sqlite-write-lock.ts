import type BetterSqlite3 from 'better-sqlite3';

/** How long a SQLite write waits for another process's write lock before the request is a 503. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Begins an IMMEDIATE transaction on the writer, waiting asynchronously
 * (bounded by SQLITE_BUSY_TIMEOUT_MS) while another process holds the write
 * lock. Why: a deferred transaction that read first and then writes gets
 * SQLITE_BUSY at once when another connection writes (SQLite cannot wait
 * there without risking a deadlock), and a busy wait inside the driver would
 * freeze the event loop. Taking the lock first makes every write transaction
 * wait its turn, with reads served meanwhile.
 */
export async function beginSqliteWrite(db: BetterSqlite3.Database): Promise<void> {
  db.pragma('busy_timeout = 0');
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  try {
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } finally {
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}

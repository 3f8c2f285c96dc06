import type { Knex } from 'knex';

/** How long a SQLite write waits for another process's write lock before the request is a 503. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Turns the deferred transaction knex opened into an IMMEDIATE one, waiting
 * asynchronously (bounded by SQLITE_BUSY_TIMEOUT_MS) while another process
 * holds the write lock. Why: a deferred transaction that read first and then
 * writes gets SQLITE_BUSY at once when another connection writes (SQLite
 * cannot wait there without risking a deadlock), and a busy wait inside the
 * driver would freeze the event loop. Taking the lock first makes every
 * write transaction wait its turn, with reads served meanwhile.
 */
export async function takeSqliteWriteLock(trx: Knex.Transaction): Promise<void> {
  await trx.raw('ROLLBACK'); // nothing has run in knex's deferred transaction yet
  await trx.raw('PRAGMA busy_timeout = 0');
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  try {
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        await trx.raw('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) {
          await trx.raw('BEGIN'); // knex will roll back: give it a transaction to roll back
          throw error;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } finally {
    await trx.raw(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}

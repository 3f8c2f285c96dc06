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
  const run = controlStatements(db);
  run.noWait.get();
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  try {
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        run.begin.run();
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } finally {
    run.wait.get();
  }
}

/** COMMIT or ROLLBACK on the writer, as prepared statements. */
export function endSqliteWrite(db: BetterSqlite3.Database, how: 'COMMIT' | 'ROLLBACK'): void {
  const run = controlStatements(db);
  (how === 'COMMIT' ? run.commit : run.rollback).run();
}

interface ControlStatements {
  noWait: BetterSqlite3.Statement;
  wait: BetterSqlite3.Statement;
  begin: BetterSqlite3.Statement;
  commit: BetterSqlite3.Statement;
  rollback: BetterSqlite3.Statement;
}

/**
 * A write's control statements, prepared once per handle: `db.pragma()` and `db.exec()` parse their SQL anew on
 * every call, and each write ran four of them.
 */
const prepared = new WeakMap<BetterSqlite3.Database, ControlStatements>();
function controlStatements(db: BetterSqlite3.Database): ControlStatements {
  let statements = prepared.get(db);
  if (!statements) {
    statements = {
      noWait: db.prepare('PRAGMA busy_timeout = 0'),
      wait: db.prepare(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    prepared.set(db, statements);
  }
  return statements;
}

/**
 * SQLite's writer: one handle, leased to one user at a time (a pool of one),
 * in the order they asked. A transaction holds it from BEGIN to COMMIT, so
 * writes from this process never contend with each other for SQLite's lock.
 * Reads outside transactions use the handle while no one holds it, the read
 * handle otherwise (sqlite-read-handle.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { acquireTimeout, type ConnectionPool, type Lease } from './lease';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-write-lock';

interface Waiter {
  resolve(lease: Lease): void;
  timer: NodeJS.Timeout;
}

export class SqliteWriter implements ConnectionPool {
  private handle: BetterSqlite3.Database | undefined;
  private leased = false;
  private closed = false;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly filename: string,
    private readonly timeoutMs: number,
  ) {}

  async acquire(): Promise<Lease> {
    const db = this.open();
    if (!this.leased) {
      this.leased = true;
      return this.lease(db);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(acquireTimeout(this.timeoutMs));
        }, this.timeoutMs),
      };
      this.waiting.push(waiter);
    });
  }

  /**
   * The handle while it is open and no one holds it or waits for it. A read may run on it then: better-sqlite3
   * runs a statement synchronously, so no transaction can begin before the read has its rows.
   */
  idleHandle(): BetterSqlite3.Database | undefined {
    // `inTransaction`: a transaction someone began by hand (a raw BEGIN from Strapi code) holds it as well.
    return this.leased || this.closed || this.handle?.inTransaction ? undefined : this.handle;
  }

  async destroy(): Promise<void> {
    this.closed = true;
    this.handle?.close();
    this.handle = undefined;
  }

  private lease(db: BetterSqlite3.Database): Lease {
    let released = false;
    return {
      raw: db,
      // One handle: an unavailable answer (busy, disk full) is SQLite's, not the handle's; it stays.
      release: () => {
        if (released) return;
        released = true;
        const next = this.waiting.shift();
        if (!next) {
          this.leased = false;
          return;
        }
        clearTimeout(next.timer);
        next.resolve(this.lease(db));
      },
    };
  }

  private open(): BetterSqlite3.Database {
    if (this.handle) return this.handle;
    if (this.closed) throw new Error('the database connection is closed');
    if (this.filename !== ':memory:') fs.mkdirSync(path.dirname(this.filename), { recursive: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    const db = new Database(this.filename);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      prepareSqliteHandle(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return (this.handle = db);
  }
}

const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;

/** Settings every SQLite handle needs, the writer and the reader alike. */
export function prepareSqliteHandle(db: BetterSqlite3.Database): void {
  db.pragma('foreign_keys = ON');
  // Reads map the file instead of copying pages through read(): list scans get faster and steadier. Writes still
  // go through the WAL, so a mapped writer is safe.
  db.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // Full Unicode lower-case, so `$…i` operators fold non-ASCII letters too.
  db.function('tessera_lower', { deterministic: true }, (value: unknown) =>
    value === null || value === undefined ? null : String(value).toLowerCase(),
  );
}

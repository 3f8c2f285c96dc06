/**
 * Transactions on a leased connection, carried in AsyncLocalStorage: code
 * running inside `run()` — lifecycle hooks included — uses the transaction
 * without passing it, and nested calls join the outer one. Callbacks queued
 * with `afterCommit` run once the outermost transaction has committed, never
 * when it rolls back.
 *
 * BEGIN, COMMIT and ROLLBACK go to the driver directly: they are no
 * request's queries, so query listeners (query-count budgets) never see them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type { ClientBase } from 'pg';
import type { Dialect } from './config';
import type { ConnectionPool } from './pool';
import { executeMysql } from './mysql-driver';
import { pgQuery } from './postgres-driver';
import { beginSqliteWrite, endSqliteWrite } from './sqlite-write-lock';
import { isLockConflict, isUnavailable, lockConflict, unavailable } from './unavailable';

export interface TransactionScope {
  /** The leased connection every statement of the transaction runs on. */
  readonly raw: unknown;
  /** Run in order once committed. */
  readonly committed: Array<() => unknown>;
  /** Content types written (write-tracking.ts). */
  readonly written: Set<string>;
}

export class Transactions {
  private readonly storage = new AsyncLocalStorage<TransactionScope>();
  private open = 0;

  constructor(
    private readonly pool: ConnectionPool,
    private readonly dialect: Dialect,
    /** Last statements inside the transaction, after the work (write notifications). */
    private readonly beforeCommit: (scope: TransactionScope) => Promise<void>,
    /** A statement sent in the COMMIT's own message (PostgreSQL's NOTIFY), if any. */
    private readonly withCommit: (scope: TransactionScope) => string | undefined,
    /** Told as a transaction ends, before any after-commit work runs (shared-reads.ts: reads begun before it are not joined after). */
    private readonly ended: () => void,
  ) {}

  current(): TransactionScope | undefined {
    return this.storage.getStore();
  }

  /**
   * Runs `work` in a transaction. When the database drops away after the work
   * finished, the commit's outcome is unknown: that is a 503 saying so, never
   * a success.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current()) return work();
    this.open++;
    let scope: TransactionScope;
    let result: T;
    try {
      [scope, result] = await this.leased(work);
    } finally {
      // An enabled AsyncLocalStorage makes Node track every promise; with no
      // transaction open, switch it off so reads pay nothing for it.
      if (--this.open === 0) this.storage.disable();
    }
    for (const callback of scope.committed) await callback();
    return result;
  }

  /** Runs `callback` after the current transaction commits; outside one, at once. */
  async afterCommit(callback: () => unknown): Promise<void> {
    const scope = this.current();
    if (scope) scope.committed.push(callback);
    else await callback();
  }

  /** Runs `work` outside any current transaction (background work that must not join a request's). */
  outside<T>(work: () => T): T {
    return this.storage.exit(work);
  }

  private async leased<T>(work: () => Promise<T>): Promise<[TransactionScope, T]> {
    const lease = await this.pool.acquire().catch((error: unknown) => {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    });
    const scope: TransactionScope = { raw: lease.raw, committed: [], written: new Set() };
    let broken = false;
    try {
      let value: T;
      try {
        await this.begin(lease.raw);
        value = await this.storage.run(scope, async () => {
          const done = await work();
          await this.beforeCommit(scope);
          return done;
        });
      } catch (error) {
        const lost = isUnavailable(error);
        broken = lost;
        if (!lost) await this.control(lease.raw, 'ROLLBACK').catch((failure: unknown) => (broken = isUnavailable(failure)));
        throw lost ? unavailable(error, 'query') : isLockConflict(error) ? lockConflict(error) : error;
      }
      try {
        const notices = this.withCommit(scope);
        await this.control(lease.raw, notices ? `${notices}; COMMIT` : 'COMMIT');
      } catch (error) {
        broken = isUnavailable(error);
        if (broken) throw unavailable(error, 'commit');
        await this.control(lease.raw, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
      return [scope, value];
    } finally {
      this.ended();
      lease.release(broken);
    }
  }

  private async begin(raw: unknown): Promise<void> {
    if (this.dialect === 'sqlite') await beginSqliteWrite(raw as BetterSqlite3.Database);
    else await this.control(raw, 'BEGIN');
  }

  /** BEGIN, COMMIT or ROLLBACK (PostgreSQL: COMMIT may follow a statement in the same simple-protocol message). */
  private async control(raw: unknown, sql: string): Promise<void> {
    if (this.dialect === 'sqlite') {
      const db = raw as BetterSqlite3.Database;
      // SQLite ends a transaction itself on some errors (a full disk): nothing is left to roll back.
      if (sql === 'COMMIT' || sql === 'ROLLBACK') {
        if (sql === 'COMMIT' || db.inTransaction) endSqliteWrite(db, sql);
      } else db.exec(sql);
    } else if (this.dialect === 'mysql') await executeMysql(raw, { sql, bindings: [] });
    else await pgQuery(raw as ClientBase, sql);
  }
}

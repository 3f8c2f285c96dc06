/**
 * Where a SQLite read outside a transaction runs. On the writer's handle when
 * no one holds it: a handle's page cache is dropped whenever another handle
 * commits, so reads on a second handle pay for every write (a token lookup
 * after a create took five times as long there). While a transaction holds
 * the writer, reads use a second, query-only handle instead: synchronous, no
 * wait, and WAL lets it read committed data while the writer writes — the
 * isolation a reader should get. An in-memory database has no second handle:
 * reads share the writer.
 */
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { prepareSqliteHandle } from './sqlite-writer';

export class SqliteReadHandle {
  /** Undefined until first needed; null when reads must share the writer (`:memory:`). */
  private handle: BetterSqlite3.Database | null | undefined;
  private lastDataVersion = -1;
  /** `PRAGMA data_version`, prepared once: pragma() prepares anew on every call, and lists ask on every request. */
  private dataVersion: BetterSqlite3.Statement | undefined;

  /** `idleWriter`: the writer's handle when it is open and no one holds it (sqlite-writer.ts). */
  constructor(
    private readonly filename: string,
    private readonly idleWriter: () => BetterSqlite3.Database | undefined,
  ) {}

  /** The handle for a read outside a transaction; null: read through the writer's lease. */
  forRead(): BetterSqlite3.Database | null {
    return this.idleWriter() ?? this.get();
  }

  private get(): BetterSqlite3.Database | null {
    if (this.handle !== undefined) return this.handle;
    if (this.filename === ':memory:') return (this.handle = null);
    // Not created yet (the writer creates it on first use): read through the writer meanwhile.
    if (!fs.existsSync(this.filename)) return null;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    const handle = new Database(this.filename, { fileMustExist: true });
    prepareSqliteHandle(handle);
    handle.pragma('query_only = ON');
    return (this.handle = handle);
  }

  /** Has a connection other than this handle committed since the last call? (`PRAGMA data_version`) */
  changedSinceLastCheck(): boolean {
    const reader = this.get();
    if (!reader) return false;
    this.dataVersion ??= reader.prepare('PRAGMA data_version').pluck();
    const version = Number(this.dataVersion.get());
    const changed = version !== this.lastDataVersion;
    this.lastDataVersion = version;
    return changed;
  }

  close(): void {
    this.handle?.close();
    this.handle = null;
    this.dataVersion = undefined;
  }
}

/**
 * The connection: knex owns the pool and builds SQL; this module executes it.
 *
 * Why not `await builder` everywhere: knex re-prepares a statement on every
 * call. Executing the compiled SQL ourselves lets SQLite reuse prepared
 * statements and Postgres reuse named ones, which is most of the per-query
 * overhead on a hot list or get-one route.
 *
 * Transactions travel in AsyncLocalStorage: code running inside
 * `transaction()` — lifecycle hooks included — uses it without passing it.
 *
 * On a SQLite file, reads outside a transaction use a second, query-only
 * handle: synchronous, no pool round trip. WAL mode lets it read committed
 * data while the pooled handle writes — the isolation a reader should get.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import knexFactory, { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import type { ClientBase, QueryResult } from 'pg';
import type { Dialect, ResolvedDatabaseConfig } from './config';
import { isUnavailable, unavailable } from './unavailable';
import { notificationPayload } from './write-notifications';
import { takeSqliteWriteLock } from './sqlite-write-lock';
import { affectedMysql, executeMysql } from './mysql-driver';
import { knexConfig, prepareSqliteHandle } from './knex-config';

export type Row = Record<string, unknown>;

interface SqlStatement {
  sql: string;
  bindings: readonly unknown[];
}

type Compilable = { toSQL(): Knex.Sql | Knex.Sql[] };

const STATEMENT_CACHE_LIMIT = 1000;
const SQLITE_READ_MMAP_BYTES = 256 * 1024 * 1024;

export class Connection {
  readonly knex: Knex;
  readonly dialect: Dialect;
  private readonly transactions = new AsyncLocalStorage<Knex.Transaction>();
  private readonly afterCommitQueues = new WeakMap<Knex.Transaction, Array<() => unknown>>();
  /** Per transaction: the content types it wrote (see markWritten). */
  private readonly writtenTypes = new WeakMap<Knex.Transaction, Set<string>>();
  private readonly writeListeners: Array<(uid: string) => void> = [];
  /** PostgreSQL NOTIFY channel announcing committed writes to other processes, and who we are on it, when enabled. */
  private notifyOn: { channel: string; sender: string } | undefined;
  /** The same for other processes on MySQL (mysql-write-versions.ts). */
  private commitHook: ((types: Set<string>) => Promise<() => void>) | undefined;
  private readonly sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
  private readonly pgStatementNames = new Map<string, string>();
  /** One entry per subscription, so the same function subscribed twice is two entries. */
  private readonly queryListeners = new Set<{ listener: (sql: string) => void }>();
  /** Matches SQL reading a column whose integers may pass 2^53 (SQLite must read those exactly). */
  private exactIntegerColumns: RegExp | undefined;
  private readonly exactStatements = new WeakSet<BetterSqlite3.Statement>();
  private openTransactions = 0;
  private lastDataVersion = -1;
  /** Undefined until first needed; null when reads must share the pool (`:memory:`). */
  private readHandle: BetterSqlite3.Database | null | undefined;
  /** `PRAGMA data_version` on the read handle, prepared once (pragma() prepares anew on every call; lists ask per request). */
  private dataVersion: BetterSqlite3.Statement | undefined;

  constructor(private readonly config: ResolvedDatabaseConfig) {
    this.dialect = config.dialect;
    this.knex = knexFactory(knexConfig(config));
  }

  /** Postgres schema holding the tables, or undefined for SQLite / `public`. */
  get schema(): string | undefined {
    return this.config.postgres?.schema;
  }

  /** Called with every executed SQL string (query-count tests, debug logging). */
  onQuery(listener: (sql: string) => void): () => void {
    // The returned function removes this subscription only, however often it is called.
    const subscription = { listener };
    this.queryListeners.add(subscription);
    return () => {
      this.queryListeners.delete(subscription);
    };
  }

  /**
   * Columns holding 64-bit integers (biginteger attributes). SQLite statements
   * reading them return exact values: numbers when safe, strings beyond 2^53.
   * Decided once per prepared statement, so other queries pay nothing.
   */
  readExactIntegers(columns: string[]): void {
    if (columns.length === 0) return;
    this.exactIntegerColumns = new RegExp(`\\b(${columns.map((column) => column.replace(/[^A-Za-z0-9_]/g, '')).join('|')})\\b`);
  }

  /** The builder bound to the current transaction, if any (for schema work). */
  get builder(): Knex {
    return this.transactions.getStore() ?? this.knex;
  }

  async all(query: Compilable | SqlStatement): Promise<Row[]> {
    const statement = toStatement(query);
    const reader = this.dialect === 'sqlite' && !this.inTransaction() ? this.sqliteReadHandle() : null;
    if (reader) return this.execute(reader, statement);
    return this.withRawConnection((raw) => this.execute(raw, statement));
  }

  async first(query: Compilable | SqlStatement): Promise<Row | undefined> {
    return (await this.all(query))[0];
  }

  /** Runs a write; returns rows when the statement has RETURNING. */
  async run(query: Compilable | SqlStatement): Promise<Row[]> {
    const statement = toStatement(query);
    return this.withRawConnection((raw) => this.execute(raw, statement));
  }

  /** Runs a write; returns how many rows it inserted, updated or deleted (what a write reports must come from here). */
  async affected(query: Compilable | SqlStatement): Promise<number> {
    const statement = toStatement(query);
    return this.withRawConnection(async (raw) => {
      this.notify(statement);
      try {
        if (this.dialect === 'sqlite') return this.sqliteStatement(raw as BetterSqlite3.Database, statement.sql).run(...statement.bindings.map(sqliteValue)).changes;
        if (this.dialect === 'mysql') return await affectedMysql(raw, statement);
        const result = await (raw as ClientBase).query({ name: this.pgStatementName(statement.sql), text: statement.sql, values: statement.bindings as unknown[] });
        return result.rowCount ?? 0;
      } catch (error) {
        throw isUnavailable(error) ? unavailable(error, 'query') : error;
      }
    });
  }

  /** Runs SQL with `?` placeholders (`??` for identifiers) on either dialect. */
  async raw(sql: string, bindings: readonly unknown[] = []): Promise<Row[]> {
    return this.run(this.knex.raw(sql, bindings as Knex.RawBinding[]));
  }

  inTransaction(): boolean {
    return this.transactions.getStore() !== undefined;
  }

  /**
   * Runs `work` in a transaction; nested calls join the outer one. When the
   * database drops away after the work finished, the commit's outcome is
   * unknown: that is a 503 saying so, never a success.
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction()) return work();
    this.openTransactions++;
    const committed: Array<() => unknown> = [];
    let result: T;
    let workDone = false;
    try {
      result = await this.knex.transaction(async (trx) => {
        if (this.dialect === 'sqlite') await takeSqliteWriteLock(trx);
        this.afterCommitQueues.set(trx, committed);
        const value = await this.transactions.run(trx, async () => {
          const done = await work();
          await this.announceWrites(trx, committed);
          return done;
        });
        workDone = true;
        return value;
      });
    } catch (error) {
      if (isUnavailable(error)) throw unavailable(error, workDone ? 'commit' : 'query');
      throw error;
    } finally {
      // An enabled AsyncLocalStorage makes Node track every promise; with no
      // transaction open, switch it off so reads pay nothing for it.
      if (--this.openTransactions === 0) this.transactions.disable();
    }
    for (const callback of committed) await callback();
    return result;
  }

  /**
   * Runs `callback` once the current transaction (the outermost one, when
   * nested) has committed — never when it rolls back. Outside a transaction
   * it runs at once. Content events use this: they announce writes that stay.
   */
  async afterCommit(callback: () => unknown): Promise<void> {
    const trx = this.transactions.getStore();
    const queue = trx ? this.afterCommitQueues.get(trx) : undefined;
    if (queue) queue.push(callback);
    else await callback();
  }

  /**
   * The current transaction writes entries of `uid`. Once it commits, write
   * listeners (the count cache) hear of each type once; with notifications
   * on, other processes do too — the NOTIFY is sent inside the transaction,
   * so PostgreSQL delivers it only if the transaction commits.
   */
  markWritten(uid: string): void {
    const trx = this.transactions.getStore();
    if (!trx) {
      for (const listener of this.writeListeners) listener(uid);
      return;
    }
    let types = this.writtenTypes.get(trx);
    if (!types) {
      types = new Set();
      this.writtenTypes.set(trx, types);
    }
    types.add(uid);
  }

  onCommittedWrite(listener: (uid: string) => void): void {
    this.writeListeners.push(listener);
  }

  /** MySQL: `hook` records the transaction's written types before it commits; what it returns runs after the commit. */
  announceWritesWith(hook: (types: Set<string>) => Promise<() => void>): void {
    this.commitHook = hook;
  }

  /** Announce committed writes on this PostgreSQL channel (for other processes' caches), signed `sender` (see write-notifications.ts). */
  notifyWritesOn(channel: string, sender: string): void {
    this.notifyOn = { channel, sender };
  }

  /** Before commit: queue the listeners' after-commit call and, with notifications on, NOTIFY other processes. */
  private async announceWrites(trx: Knex.Transaction, committed: Array<() => unknown>): Promise<void> {
    const types = this.writtenTypes.get(trx);
    if (!types || types.size === 0) return;
    if (this.notifyOn) {
      const { channel, sender } = this.notifyOn;
      for (const uid of types) await this.run({ sql: 'SELECT pg_notify($1, $2)', bindings: [channel, notificationPayload(sender, uid)] });
    }
    const recorded = this.commitHook ? await this.commitHook(types) : undefined;
    committed.unshift(() => {
      recorded?.();
      for (const uid of types) for (const listener of this.writeListeners) listener(uid);
    });
  }

  /** SQLite: has a connection other than the read handle committed since the last call? (`PRAGMA data_version`) */
  sqliteChangedSinceLastCheck(): boolean {
    const reader = this.dialect === 'sqlite' ? this.sqliteReadHandle() : null;
    if (!reader) return false;
    this.dataVersion ??= reader.prepare('PRAGMA data_version').pluck();
    const version = Number(this.dataVersion.get());
    const changed = version !== this.lastDataVersion;
    this.lastDataVersion = version;
    return changed;
  }

  async destroy(): Promise<void> {
    this.readHandle?.close();
    this.readHandle = null;
    this.dataVersion = undefined;
    await this.knex.destroy();
  }

  private sqliteReadHandle(): BetterSqlite3.Database | null {
    if (this.readHandle !== undefined) return this.readHandle;
    const filename = this.config.sqlite!.filename;
    if (filename === ':memory:') return (this.readHandle = null);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    const handle = new Database(filename, { fileMustExist: true });
    prepareSqliteHandle(handle);
    handle.pragma('query_only = ON');
    // Reads map the file instead of copying pages through read(): list scans get faster and steadier.
    handle.pragma(`mmap_size = ${SQLITE_READ_MMAP_BYTES}`);
    return (this.readHandle = handle);
  }

  private async withRawConnection<T>(use: (raw: unknown) => Promise<T> | T): Promise<T> {
    // A transaction's client hands back the transaction's own connection.
    const client = (this.transactions.getStore() ?? this.knex).client as KnexClientInternals;
    let raw: unknown;
    try {
      raw = await client.acquireConnection();
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    }
    try {
      return await use(raw);
    } finally {
      await client.releaseConnection(raw);
    }
  }

  private async execute(raw: unknown, statement: SqlStatement): Promise<Row[]> {
    this.notify(statement);
    try {
      if (this.dialect === 'sqlite') return this.executeSqlite(raw as BetterSqlite3.Database, statement);
      if (this.dialect === 'mysql') return await executeMysql(raw, statement);
      return await this.executePostgres(raw as ClientBase, statement);
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    }
  }

  /** Does the database answer now? (`/_health`) A bounded `SELECT 1`. */
  async ping(timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const answer = this.run({ sql: 'SELECT 1', bindings: [] }).then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private notify(statement: SqlStatement): void {
    for (const { listener } of this.queryListeners) listener(statement.sql);
    if (this.config.debug) console.log('[sql]', statement.sql, statement.bindings);
  }

  private executeSqlite(db: BetterSqlite3.Database, statement: SqlStatement): Row[] {
    const prepared = this.sqliteStatement(db, statement.sql);
    const bindings = statement.bindings.map(sqliteValue);
    // Statements without a result set (no RETURNING) cannot use all().
    if (prepared.reader) {
      const rows = prepared.all(...bindings) as Row[];
      return this.exactStatements.has(prepared) ? rows.map(exactIntegers) : rows;
    }
    prepared.run(...bindings);
    return [];
  }

  private sqliteStatement(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
    let cache = this.sqliteStatements.get(db);
    if (!cache) {
      cache = new Map();
      this.sqliteStatements.set(db, cache);
    }
    let prepared = cache.get(sql);
    if (!prepared) {
      if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
      prepared = db.prepare(sql);
      if (prepared.reader && this.exactIntegerColumns?.test(sql)) {
        prepared.safeIntegers(true);
        this.exactStatements.add(prepared);
      }
      cache.set(sql, prepared);
    }
    return prepared;
  }

  private async executePostgres(client: ClientBase, statement: SqlStatement): Promise<Row[]> {
    const result: QueryResult = await client.query({
      name: this.pgStatementName(statement.sql),
      text: statement.sql,
      values: statement.bindings as unknown[],
    });
    return result.rows as Row[];
  }

  private pgStatementName(sql: string): string | undefined {
    let name = this.pgStatementNames.get(sql);
    if (name === undefined && this.pgStatementNames.size < STATEMENT_CACHE_LIMIT) {
      name = `t${this.pgStatementNames.size + 1}`;
      this.pgStatementNames.set(sql, name);
    }
    return name;
  }
}

interface KnexClientInternals {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

function toStatement(query: Compilable | SqlStatement): SqlStatement {
  // Knex builders carry `sql`/`bindings` too (with `?` placeholders): compile anything compilable.
  if (typeof (query as Partial<Compilable>).toSQL !== 'function') return query as SqlStatement;
  const compiled = (query as Compilable).toSQL();
  const single = Array.isArray(compiled) ? compiled[0] : compiled;
  const native = single.toNative();
  return { sql: native.sql, bindings: native.bindings };
}

/** BigInts from a safe-integer statement: numbers when exact, decimal strings otherwise. */
function exactIntegers(row: Row): Row {
  for (const [key, value] of Object.entries(row)) {
    if (typeof value !== 'bigint') continue;
    row[key] = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : String(value);
  }
  return row;
}

function sqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  if (value === undefined) return null;
  return value;
}

/**
 * The connection: what the rest of Tessera runs SQL through. knex builds the
 * SQL (knex-config.ts); this module executes it on connections it owns, and
 * ties the parts together, one job each:
 *
 * - pool.ts, sqlite-writer.ts: the connections, per dialect;
 * - statements.ts: executing one statement with prepared-statement reuse;
 * - transactions.ts: AsyncLocalStorage transactions and after-commit queues;
 * - write-tracking.ts: announcing committed writes (here and to other processes);
 * - sqlite-read-handle.ts: where SQLite reads outside transactions run (the idle writer, or a second, query-only handle);
 * - shared-reads.ts: identical reads in flight at once share one query (PostgreSQL, MySQL).
 */
import type { Knex } from 'knex';
import type { Dialect, ResolvedDatabaseConfig } from './config';
import { sqlBuilder } from './knex-config';
import { createPool, type ConnectionPool } from './pool';
import { Statements, toStatement, type Compilable, type Row, type SqlStatement } from './statements';
import { Transactions } from './transactions';
import { WriteTracking } from './write-tracking';
import { SqliteReadHandle } from './sqlite-read-handle';
import { SqliteWriter } from './sqlite-writer';
import { answersWithin, isUnavailable, unavailable } from './unavailable';
import { tableExistsSql } from './catalog';
import { SharedReads } from './shared-reads';

export type { Row } from './statements';

/** What a connection and its background view share. */
interface Shared {
  config: ResolvedDatabaseConfig;
  knex: Knex;
  pool: ConnectionPool;
  statements: Statements;
  reader: SqliteReadHandle | undefined;
  /** Undefined on SQLite, whose reads are never in flight together. */
  sharedReads: SharedReads | undefined;
  /** An INSERT may end in RETURNING: PostgreSQL and SQLite; MariaDB (10.5+) once `learnServer` has seen it; never MySQL. */
  insertReturning: boolean;
}

export class Connection {
  readonly knex: Knex;
  readonly dialect: Dialect;
  /**
   * For background work (webhook deliveries): never joins a request's transaction; query listeners never see it; its
   * reads are never shared with a request's (shared-reads.ts), so what a request's listeners count is what it ran.
   */
  readonly background: Connection;
  /** False for the background connection. */
  private readonly sharesReads: boolean;
  private readonly shared: Shared;
  private readonly transactions: Transactions;
  private readonly writes = new WriteTracking();
  /** One entry per subscription, so the same function subscribed twice is two entries. */
  private readonly queryListeners = new Set<{ listener: (sql: string, bindings: readonly unknown[]) => void }>();

  constructor(config: ResolvedDatabaseConfig, shared?: Shared) {
    this.dialect = config.dialect;
    this.sharesReads = shared === undefined;
    this.shared = shared ?? {
      config,
      knex: sqlBuilder(config.dialect),
      pool: createPool(config),
      statements: new Statements(config.dialect),
      reader: undefined,
      sharedReads: config.dialect === 'sqlite' ? undefined : new SharedReads(),
      insertReturning: config.dialect !== 'mysql',
    };
    const pool = this.shared.pool;
    if (!shared && pool instanceof SqliteWriter) this.shared.reader = new SqliteReadHandle(config.sqlite!.filename, () => pool.idleHandle());
    this.knex = this.shared.knex;
    const writes = this.writes;
    this.transactions = new Transactions(
      this.shared.pool,
      this.dialect,
      (scope) => writes.beforeCommit(scope),
      (scope) => writes.notifyStatement(scope),
      () => this.writeFinished(),
    );
    this.background = shared ? this : new Connection(config, this.shared);
  }

  /** Postgres schema holding the tables, or undefined for SQLite / `public`. */
  get schema(): string | undefined {
    return this.shared.config.postgres?.schema;
  }

  /** Whether an INSERT may end in RETURNING (see Shared): the row written comes back without a read. */
  get insertReturning(): boolean {
    return this.shared.insertReturning;
  }

  /**
   * What the server is, where the dialect leaves it open (at boot): MySQL and MariaDB share a driver and most SQL,
   * but MariaDB 10.5+ returns an inserted row (`INSERT … RETURNING`), which saves a create its read-back.
   */
  async learnServer(): Promise<void> {
    if (this.dialect !== 'mysql') return;
    const [row] = await this.raw('SELECT VERSION() AS version');
    const version = String(row?.version ?? '');
    const [, major, minor] = /^(\d+)\.(\d+)/.exec(version) ?? [];
    this.shared.insertReturning = version.toLowerCase().includes('mariadb') && Number(major) * 100 + Number(minor) >= 1005;
  }

  /** Called with every executed statement, SQL and bindings (query-count tests, the bench's capture, debug logging). */
  onQuery(listener: (sql: string, bindings: readonly unknown[]) => void): () => void {
    // The returned function removes this subscription only, however often it is called.
    const subscription = { listener };
    this.queryListeners.add(subscription);
    return () => {
      this.queryListeners.delete(subscription);
    };
  }

  /** Columns holding 64-bit integers: SQLite reads them exactly (statements.ts). */
  readExactIntegers(columns: string[]): void {
    this.shared.statements.readExactIntegers(columns);
  }

  /** Rows of a read. */
  async all(query: Compilable | SqlStatement): Promise<Row[]> {
    return this.read('rows', toStatement(query), (raw, statement) => this.shared.statements.rows(raw, statement));
  }

  /**
   * Rows of a read as value lists in select order, for the row mapper (sql/row-mapper.ts), which decodes them:
   * PostgreSQL timestamps come as text (statements.ts `values`).
   */
  values(query: Compilable | SqlStatement): Promise<unknown[][]> {
    return this.read('values', toStatement(query), (raw, statement) => this.shared.statements.values(raw, statement));
  }

  /**
   * Outside any transaction, a read on SQLite runs on the idle writer or the query-only handle
   * (sqlite-read-handle.ts); elsewhere it may share an identical read in flight (shared-reads.ts). `kind` names
   * how `run` decodes rows.
   */
  private read<T>(kind: string, statement: SqlStatement, run: (raw: unknown, statement: SqlStatement) => Promise<T>): Promise<T> {
    const onDriver = () => this.onDriverConnection((raw) => run(raw, statement), statement);
    if (this.inTransaction()) return onDriver();
    const { reader, sharedReads } = this.shared;
    if (sharedReads && this.sharesReads) return sharedReads.share(kind, statement.sql, statement.bindings, onDriver);
    const handle = reader?.forRead();
    if (!handle) return onDriver();
    this.notify(statement);
    return run(handle, statement);
  }

  async first(query: Compilable | SqlStatement): Promise<Row | undefined> {
    return (await this.all(query))[0];
  }

  /** Runs a write; returns rows when the statement has RETURNING. */
  async run(query: Compilable | SqlStatement): Promise<Row[]> {
    const statement = toStatement(query);
    return this.written(this.onDriverConnection((raw) => this.shared.statements.rows(raw, statement), statement));
  }

  /** Runs a write; returns how many rows it inserted, updated or deleted (what a write reports must come from here). */
  async affected(query: Compilable | SqlStatement): Promise<number> {
    const statement = toStatement(query);
    return this.written(this.onDriverConnection((raw) => this.shared.statements.affected(raw, statement), statement));
  }

  /**
   * Once `write` finishes, reads running now are no longer shared with later ones (shared-reads.ts). Every write
   * counts, not only those announced by type: the webhook tables and app code's SQL change rows too.
   */
  private async written<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.writeFinished();
    }
  }

  /** A write finished here, or another process announced one: no read running now is shared after this. */
  writeFinished(): void {
    this.shared.sharedReads?.written();
  }

  /** Another process's write was heard of (shared-reads.ts). */
  remoteWriteHeard(): void {
    this.shared.sharedReads?.heardRemoteWrite();
  }

  /** False while other processes' writes may go unheard (their notification channel is down): no read is shared. */
  setWritesHeard(heard: boolean): void {
    this.shared.sharedReads?.setCoherent(heard);
  }

  /** Other processes' writes are heard late: a read joins another only after `check` (shared-reads.ts, heard-barrier.ts). */
  confirmWritesHeardWith(check: () => Promise<void>): void {
    this.shared.sharedReads?.confirmWritesWith(check);
  }

  /** Runs SQL with `?` placeholders (`??` for identifiers) on any dialect. */
  async raw(sql: string, bindings: readonly unknown[] = []): Promise<Row[]> {
    return this.run(this.knex.raw(sql, bindings as Knex.RawBinding[]));
  }

  /** Runs the statements a schema builder (`knex.schema…`) holds, in order, in the current transaction if any. */
  async runSchema(builder: Knex.SchemaBuilder): Promise<void> {
    for (const statement of builder.toSQL() as Array<Knex.Sql & { statementsProducer?: unknown }>) {
      // knex rebuilds a SQLite table for some alterations, reading it first: Tessera's sync never asks for those.
      if (statement.statementsProducer) throw new Error(`schema change needs a table rebuild, which Tessera does not do: ${statement.sql}`);
      await this.run({ sql: statement.sql, bindings: statement.bindings });
    }
  }

  /** Does the table exist (in the current schema)? */
  async tableExists(name: string): Promise<boolean> {
    return (await this.run(tableExistsSql(this.dialect, name))).length > 0;
  }

  inTransaction(): boolean {
    return this.transactions.current() !== undefined;
  }

  /** Runs `work` in a transaction; nested calls join the outer one (transactions.ts). */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.transactions.run(work);
  }

  /** Runs `callback` once the outermost transaction has committed, never on rollback; outside one, at once (content events). */
  afterCommit(callback: () => unknown): Promise<void> {
    return this.transactions.afterCommit(callback);
  }

  /** The current transaction writes entries of `uid`: listeners hear of it once it commits (write-tracking.ts). */
  markWritten(uid: string): void {
    this.writes.written(this.transactions.current(), uid);
  }

  onCommittedWrite(listener: (uid: string) => void): void {
    this.writes.onCommittedWrite(listener);
  }

  /** MySQL: `hook` records the transaction's written types before it commits; what it returns runs after the commit. */
  announceWritesWith(hook: (types: Set<string>) => Promise<() => void>): void {
    this.writes.announceWritesWith(hook);
  }

  /** Announce committed writes on this PostgreSQL channel, signed `sender` (see write-notifications.ts). */
  notifyWritesOn(channel: string, sender: string): void {
    this.writes.notifyWritesOn(channel, sender);
  }

  /** SQLite: has a connection other than the read handle committed since the last call? (`PRAGMA data_version`) */
  sqliteChangedSinceLastCheck(): boolean {
    return this.shared.reader?.changedSinceLastCheck() ?? false;
  }

  /** Does the database answer now? (`/_health`) A bounded `SELECT 1`. */
  ping(timeoutMs = 2000): Promise<boolean> {
    return answersWithin(this.run({ sql: 'SELECT 1', bindings: [] }), timeoutMs);
  }

  async destroy(): Promise<void> {
    this.shared.reader?.close();
    await this.shared.pool.destroy();
  }

  /** Runs `use` on the current transaction's driver connection, or on one leased for it (`strapi-knex.ts` runs knex's queries here). */
  async onDriverConnection<T>(use: (raw: unknown) => Promise<T>, statement: SqlStatement): Promise<T> {
    const scope = this.transactions.current();
    if (scope) {
      this.notify(statement);
      return use(scope.raw);
    }
    const lease = await this.shared.pool.acquire().catch((error: unknown) => {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    });
    let broken = false;
    try {
      this.notify(statement);
      return await use(lease.raw);
    } catch (error) {
      broken = isUnavailable(error);
      throw error;
    } finally {
      lease.release(broken);
    }
  }

  private notify(statement: SqlStatement): void {
    for (const { listener } of this.queryListeners) listener(statement.sql, statement.bindings);
    if (this.shared.config.debug) console.log('[sql]', statement.sql, statement.bindings);
  }
}

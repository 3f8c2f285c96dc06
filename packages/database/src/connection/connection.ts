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
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import type { ClientBase, QueryResult } from 'pg';
import type { Dialect, ResolvedDatabaseConfig } from './config';

export type Row = Record<string, unknown>;

interface SqlStatement {
  sql: string;
  bindings: readonly unknown[];
}

type Compilable = { toSQL(): Knex.Sql | Knex.Sql[] };

const STATEMENT_CACHE_LIMIT = 1000;
const SQLITE_READ_MMAP_BYTES = 256 * 1024 * 1024;
const PG_OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 };

export class Connection {
  readonly knex: Knex;
  readonly dialect: Dialect;
  private readonly transactions = new AsyncLocalStorage<Knex.Transaction>();
  private readonly sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
  private readonly pgStatementNames = new Map<string, string>();
  private readonly queryListeners: Array<(sql: string) => void> = [];
  /** Matches SQL reading a column whose integers may pass 2^53 (SQLite must read those exactly). */
  private exactIntegerColumns: RegExp | undefined;
  private readonly exactStatements = new WeakSet<BetterSqlite3.Statement>();
  private openTransactions = 0;
  /** Undefined until first needed; null when reads must share the pool (`:memory:`). */
  private readHandle: BetterSqlite3.Database | null | undefined;

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
    this.queryListeners.push(listener);
    return () => this.queryListeners.splice(this.queryListeners.indexOf(listener), 1);
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

  /** Runs SQL with `?` placeholders (`??` for identifiers) on either dialect. */
  async raw(sql: string, bindings: readonly unknown[] = []): Promise<Row[]> {
    return this.run(this.knex.raw(sql, bindings as Knex.RawBinding[]));
  }

  inTransaction(): boolean {
    return this.transactions.getStore() !== undefined;
  }

  /** Runs `work` in a transaction; nested calls join the outer one. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction()) return work();
    this.openTransactions++;
    try {
      return await this.knex.transaction((trx) => this.transactions.run(trx, work));
    } finally {
      // An enabled AsyncLocalStorage makes Node track every promise; with no
      // transaction open, switch it off so reads pay nothing for it.
      if (--this.openTransactions === 0) this.transactions.disable();
    }
  }

  async destroy(): Promise<void> {
    this.readHandle?.close();
    this.readHandle = null;
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
    const raw = await client.acquireConnection();
    try {
      return await use(raw);
    } finally {
      await client.releaseConnection(raw);
    }
  }

  private async execute(raw: unknown, statement: SqlStatement): Promise<Row[]> {
    for (const listener of this.queryListeners) listener(statement.sql);
    if (this.config.debug) console.log('[sql]', statement.sql, statement.bindings);
    if (this.dialect === 'sqlite') return this.executeSqlite(raw as BetterSqlite3.Database, statement);
    return this.executePostgres(raw as ClientBase, statement);
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

function knexConfig(config: ResolvedDatabaseConfig): Knex.Config {
  if (config.dialect === 'sqlite') {
    const filename = config.sqlite!.filename;
    if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
    return {
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(db: BetterSqlite3.Database, done: (error: Error | null, db: unknown) => void) {
          try {
            db.pragma('journal_mode = WAL');
            db.pragma('synchronous = NORMAL');
            prepareSqliteHandle(db);
            done(null, db);
          } catch (error) {
            done(error as Error, db);
          }
        },
      },
    };
  }
  const pg = config.postgres!;
  const connection: Record<string, unknown> = pg.connectionString
    ? { connectionString: pg.connectionString }
    : { host: pg.host ?? '127.0.0.1', port: pg.port ?? 5432, database: pg.database, user: pg.user, password: pg.password };
  if (pg.ssl !== undefined) connection.ssl = pg.ssl;
  connection.types = { getTypeParser: postgresTypeParser };
  return {
    client: 'pg',
    connection,
    searchPath: pg.schema ? [pg.schema] : undefined,
    pool: { min: config.pool.min, max: config.pool.max },
  };
}

/** Settings every SQLite handle needs, the pooled writer and the reader alike. */
function prepareSqliteHandle(db: BetterSqlite3.Database): void {
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Full Unicode lower-case, so `$…i` operators fold non-ASCII letters too.
  db.function('tessera_lower', { deterministic: true }, (value: unknown) =>
    value === null || value === undefined ? null : String(value).toLowerCase(),
  );
}

/**
 * Postgres values come back as Tessera wants them: timestamps without zone
 * read as UTC, dates as plain `YYYY-MM-DD`, numerics and bigints as strings
 * (the codec decides the JS type per attribute).
 */
function postgresTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === PG_OID.TIMESTAMP) return (value: string) => new Date(`${value.replace(' ', 'T')}Z`);
  if (oid === PG_OID.DATE) return (value: string) => value;
  if (oid === PG_OID.INT8 || oid === PG_OID.NUMERIC) return (value: string) => value;
  // Required here, not at the top: a SQLite app never loads the pg driver (faster boot).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pgTypes: typeof import('pg').types = require('pg').types;
  return pgTypes.getTypeParser(oid, (format ?? 'text') as 'text');
}

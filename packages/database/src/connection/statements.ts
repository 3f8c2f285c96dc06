/**
 * Runs one statement on a leased connection, reusing prepared statements:
 * SQLite keeps a prepared statement per SQL text and handle, PostgreSQL a
 * statement name per SQL text (pg prepares a name once per connection and
 * reuses it after). That reuse is most of the per-query overhead saved on a
 * hot list or get-one route. MySQL binds on the client (mysql-driver.ts).
 * Driver errors meaning "the database cannot answer" become 503s here.
 */
import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import type { ClientBase, QueryArrayConfig, QueryConfig } from 'pg';
import type { Dialect } from './config';
import { isUnavailable, unavailable } from './unavailable';
import { affectedMysql, executeMysql, mysqlValues } from './mysql-driver';
import { DECODED_READ_TYPES, pgQuery } from './postgres-driver';
import { SqliteLimits } from './sqlite-limits';
import type { SqlStatement } from './sql-statement';

export type Row = Record<string, unknown>;

export type { SqlStatement };

/** A knex builder or raw statement: compiled to the dialect's SQL with native placeholders. */
export type Compilable = { toSQL(): Knex.Sql | Knex.Sql[] };

/** A cache at this size starts over: SQL built from unbounded input must not grow it forever. */
const STATEMENT_CACHE_LIMIT = 1000;

export class Statements {
  private readonly sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
  private readonly pgStatementNames = new Map<string, string>();
  /** Matches SQL reading a column whose integers may pass 2^53 (SQLite must read those exactly). */
  private exactIntegerColumns: RegExp | undefined;
  private readonly exactStatements = new WeakSet<BetterSqlite3.Statement>();
  /** LIMIT values go into SQLite's statement text (sqlite-limits.ts); listeners of `Connection.onQuery` still see them bound. */
  private readonly sqliteLimits = new SqliteLimits();

  constructor(private readonly dialect: Dialect) {}

  /**
   * Columns holding 64-bit integers (biginteger attributes). SQLite statements
   * reading them return exact values: numbers when safe, strings beyond 2^53.
   * Decided once per prepared statement, so other queries pay nothing.
   */
  readExactIntegers(columns: string[]): void {
    if (columns.length === 0) return;
    this.exactIntegerColumns = new RegExp(`\\b(${columns.map((column) => column.replace(/[^A-Za-z0-9_]/g, '')).join('|')})\\b`);
  }

  /** The rows a statement answers (a write's RETURNING rows; MySQL: `[{ id }]` for an insert). */
  async rows(raw: unknown, statement: SqlStatement): Promise<Row[]> {
    try {
      if (this.dialect === 'sqlite') return this.sqliteRows(raw as BetterSqlite3.Database, statement, false) as Row[];
      if (this.dialect === 'mysql') return await executeMysql(raw, statement);
      return (await pgQuery(raw as ClientBase, this.pgConfig(statement))).rows as Row[];
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    }
  }

  /**
   * A read's rows as value lists in select order, for a caller that decodes them itself (the row mapper): the
   * drivers build no object per row keyed by column names, and PostgreSQL hands timestamps over as text
   * (postgres-driver.ts `DECODED_READ_TYPES`).
   */
  async values(raw: unknown, statement: SqlStatement): Promise<unknown[][]> {
    try {
      if (this.dialect === 'sqlite') return this.sqliteRows(raw as BetterSqlite3.Database, statement, true) as unknown[][];
      if (this.dialect === 'mysql') return await mysqlValues(raw, statement);
      const query: QueryArrayConfig = { ...this.pgConfig(statement), types: DECODED_READ_TYPES, rowMode: 'array' };
      return (await pgQuery(raw as ClientBase, query)).rows as unknown[][];
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    }
  }

  /** How many rows a write inserted, updated or deleted. */
  async affected(raw: unknown, statement: SqlStatement): Promise<number> {
    try {
      if (this.dialect === 'sqlite') {
        const inlined = this.sqliteLimits.inline(statement);
        return this.sqliteStatement(raw as BetterSqlite3.Database, inlined.sql).run(...inlined.bindings.map(sqliteValue)).changes;
      }
      if (this.dialect === 'mysql') return await affectedMysql(raw, statement);
      return (await pgQuery(raw as ClientBase, this.pgConfig(statement))).rowCount ?? 0;
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error, 'query') : error;
    }
  }

  /** Rows as objects, or as value lists (`asValues`). */
  private sqliteRows(db: BetterSqlite3.Database, bound: SqlStatement, asValues: boolean): Row[] | unknown[][] {
    const statement = this.sqliteLimits.inline(bound);
    const prepared = this.sqliteStatement(db, statement.sql);
    const bindings = statement.bindings.map(sqliteValue);
    // Statements without a result set (no RETURNING) cannot use all().
    if (!prepared.reader) {
      prepared.run(...bindings);
      return [];
    }
    if (!asValues) {
      const rows = prepared.all(...bindings) as Row[];
      return this.exactStatements.has(prepared) ? rows.map(exactIntegers) : rows;
    }
    // One prepared statement serves both shapes (the cache is by SQL text): raw mode only for this call.
    prepared.raw(true);
    try {
      const rows = prepared.all(...bindings) as unknown[][];
      return this.exactStatements.has(prepared) ? rows.map(exactIntegers) : rows;
    } finally {
      prepared.raw(false);
    }
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

  private pgConfig(statement: SqlStatement): QueryConfig {
    return { name: this.pgStatementName(statement.sql), text: statement.sql, values: statement.bindings as unknown[] };
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

/** A row (object or value list) with 64-bit integers as numbers when safe, strings beyond 2^53. */
function exactIntegers<T extends Row | unknown[]>(row: T): T {
  const values = row as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (typeof value !== 'bigint') continue;
    values[key] = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : String(value);
  }
  return row;
}

function sqliteValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  return value;
}

export function toStatement(query: Compilable | SqlStatement): SqlStatement {
  // Knex builders carry `sql`/`bindings` too (with `?` placeholders): compile anything compilable.
  if (typeof (query as Partial<Compilable>).toSQL !== 'function') return query as SqlStatement;
  const compiled = (query as Compilable).toSQL();
  const single = Array.isArray(compiled) ? compiled[0] : compiled;
  const native = single.toNative();
  return { sql: native.sql, bindings: native.bindings };
}

/**
 * MySQL 8 / MariaDB 10.6+ through `mysql2`, as
 * Strapi v4 configures it (the pool is pool.ts): decimals as numbers, bigints as exact strings,
 * DATE as `YYYY-MM-DD`, tinyint(1) as booleans. Every session runs in UTC
 * (datetimes are stored without zone, as Strapi writes them) and at READ
 * COMMITTED, the isolation PostgreSQL gives: a locking read and a plain one
 * in the same transaction see the same committed rows.
 *
 * Statements go through `query` (client-side binding), not `execute`:
 * server-side prepared statements in mysql2 reject some bindings knex
 * produces (LIMIT with strings, booleans) and gain little for short queries.
 */
import type { MysqlConnectionConfig } from './config';

export interface MysqlStatement {
  sql: string;
  bindings: readonly unknown[];
}

/** What a write reports: rows matched (FOUND_ROWS, mysql2's default) and the AUTO_INCREMENT id of an insert. */
interface ResultHeader {
  affectedRows: number;
  insertId: number;
}

interface MysqlRawConnection {
  query(options: { sql: string; values: unknown[]; rowsAsArray: boolean; typeCast: typeof castValue }, callback: (error: Error | null, result: unknown) => void): void;
}

interface TypeCastField {
  type: string;
  length: number;
  string(): string | null;
}

/** Every pooled session: UTC, `||` as concatenation (as on the other databases), READ COMMITTED. */
export async function prepareMysqlSession(raw: unknown): Promise<void> {
  for (const sql of SESSION_SETUP) await queryMysql(raw, { sql, bindings: [] });
}

const SESSION_SETUP = ["SET time_zone = '+00:00', SESSION sql_mode = CONCAT(@@sql_mode, ',PIPES_AS_CONCAT')", 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'];

/** mysql2 connection options from Strapi's `mysql` settings (also for the sync lock's own connection). */
export function mysqlDriverOptions(mysql: MysqlConnectionConfig, timeoutMs: number): Record<string, unknown> {
  const base: Record<string, unknown> = mysql.connectionString
    ? { uri: mysql.connectionString }
    : { host: mysql.host ?? '127.0.0.1', port: mysql.port ?? 3306, database: mysql.database, user: mysql.user, password: mysql.password };
  if (mysql.ssl !== undefined && mysql.ssl !== false) base.ssl = mysql.ssl === true ? {} : mysql.ssl;
  return {
    ...base,
    charset: 'utf8mb4',
    timezone: 'Z',
    dateStrings: ['DATE'],
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: timeoutMs,
    typeCast: castValue,
  };
}

function castValue(field: TypeCastField, next: () => unknown): unknown {
  // Exact decimal text: the codec decides the JS type (numbers, as Strapi returns them on MySQL).
  if (field.type === 'NEWDECIMAL' || field.type === 'DECIMAL') return field.string();
  if (field.type === 'TINY' && field.length === 1) {
    const value = field.string();
    return value === null ? null : value === '1';
  }
  // MySQL 8 returns JSON parsed; MariaDB's JSON is text. Always text: the codec parses it once, the same way.
  if (field.type === 'JSON') return field.string();
  return next();
}

/**
 * For reads the row mapper decodes (`mysqlValues`): DATETIME and TIMESTAMP as the server's text, which the codec
 * turns into Strapi's ISO string directly (iso-timestamps.ts), as on PostgreSQL. mysql2 would parse the text into a
 * Date for each that the codec then prints again with `toISOString` (`populate=*` over 25 articles: some 400 a
 * request). Every other statement (server code's `strapi.db.connection`) keeps mysql2's Dates, as in Strapi.
 */
function castForDecoding(field: TypeCastField, next: () => unknown): unknown {
  if (field.type === 'DATETIME' || field.type === 'TIMESTAMP') return field.string();
  return castValue(field, next);
}

/** Runs one statement on a pooled connection: rows for a read; for an insert `[{ id }]` (MySQL has no RETURNING). */
export async function executeMysql(raw: unknown, statement: MysqlStatement): Promise<Array<Record<string, unknown>>> {
  const result = await queryMysql(raw, statement);
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>;
  const header = result as ResultHeader;
  if (header.insertId > 0 && /^\s*insert\b/i.test(statement.sql)) return [{ id: header.insertId }];
  return [];
}

/** Runs a write; how many rows it matched. */
export async function affectedMysql(raw: unknown, statement: MysqlStatement): Promise<number> {
  const result = await queryMysql(raw, statement);
  return Array.isArray(result) ? result.length : (result as ResultHeader).affectedRows;
}

/** A read's rows as value lists in select order (`Connection.values`). */
export async function mysqlValues(raw: unknown, statement: MysqlStatement): Promise<unknown[][]> {
  return (await queryMysql(raw, statement, true)) as unknown[][];
}

function queryMysql(raw: unknown, statement: MysqlStatement, rowsAsArray = false): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const options = { sql: statement.sql, values: statement.bindings.map(mysqlValue), rowsAsArray, typeCast: rowsAsArray ? castForDecoding : castValue };
    (raw as MysqlRawConnection).query(options, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

function mysqlValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  // MySQL's DOUBLE has no infinities (mysql2 would write the bare word): the largest finite double orders the same against stored values.
  if (value === Infinity) return Number.MAX_VALUE;
  if (value === -Infinity) return -Number.MAX_VALUE;
  return value;
}

/** DATETIME literal in UTC with milliseconds (`YYYY-MM-DD HH:MM:SS.mmm`): MySQL refuses ISO's `T…Z` in strict mode. */
export function mysqlDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

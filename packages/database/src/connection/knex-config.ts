/**
 * knex's configuration per dialect: which driver, its pool, and the session
 * settings every pooled connection needs (SQLite pragmas and functions,
 * PostgreSQL type parsers; MySQL's live in mysql-driver.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import type { ResolvedDatabaseConfig } from './config';
import { mysqlKnexConfig } from './mysql-driver';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-write-lock';

const PG_OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 };

export function knexConfig(config: ResolvedDatabaseConfig): Knex.Config {
  if (config.dialect === 'sqlite') {
    const filename = config.sqlite!.filename;
    if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
    return {
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      acquireConnectionTimeout: config.acquireTimeoutMs,
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
  if (config.dialect === 'mysql') return mysqlKnexConfig(config);
  const pg = config.postgres!;
  const connection: Record<string, unknown> = pg.connectionString
    ? { connectionString: pg.connectionString }
    : { host: pg.host ?? '127.0.0.1', port: pg.port ?? 5432, database: pg.database, user: pg.user, password: pg.password };
  if (pg.ssl !== undefined) connection.ssl = pg.ssl;
  connection.types = { getTypeParser: postgresTypeParser };
  // A server that does not answer (down, restarting) fails the connect in bounded time: a 503, not a hang.
  connection.connectionTimeoutMillis = config.acquireTimeoutMs;
  // No JIT compilation: it pays off for long analytical queries, never for a content API's short ones.
  // A plan with many joins (a deep sort path, tables not yet analysed) crosses jit_above_cost and then
  // spends seconds compiling for a query that runs in a millisecond — per request.
  connection.options = '-c jit=off';
  return {
    client: 'pg',
    connection,
    acquireConnectionTimeout: config.acquireTimeoutMs,
    searchPath: pg.schema ? [pg.schema] : undefined,
    pool: { min: config.pool.min, max: config.pool.max },
  };
}

/** Settings every SQLite handle needs, the pooled writer and the reader alike. */
export function prepareSqliteHandle(db: BetterSqlite3.Database): void {
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
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
  if (oid === PG_OID.TIMESTAMP) return utcTimestamp;
  if (oid === PG_OID.DATE || oid === PG_OID.INT8 || oid === PG_OID.NUMERIC) return asText;
  // pg asks for a parser for every column of every result: the driver's own types are looked up once, not per
  // call (a require() per column cost a quarter of a PostgreSQL get-one). Loaded on first use, not at the top:
  // a SQLite app never loads the pg driver (faster boot).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  pgTypes ??= (require('pg') as typeof import('pg')).types;
  return pgTypes.getTypeParser(oid, (format ?? 'text') as 'text');
}

let pgTypes: typeof import('pg').types | undefined;
const utcTimestamp = (value: string): Date => new Date(`${value.replace(' ', 'T')}Z`);
const asText = (value: string): string => value;

/**
 * Database configuration in the Strapi v4 shape (`config/database.ts`):
 * `{ connection: { client, connection: {...}, pool, debug } }`.
 */
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';

export type Dialect = 'sqlite' | 'postgres' | 'mysql';

export interface SqliteConnectionConfig {
  filename: string;
}

/** A database server's connection settings, as Strapi v4 takes them for `postgres` and `mysql`. */
interface ServerConnectionConfig {
  connectionString?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  ssl?: boolean | Record<string, unknown>;
}

export interface PostgresConnectionConfig extends ServerConnectionConfig {
  /** Schema holding the tables; `public` when unset. */
  schema?: string;
}

/** Strapi's `mysql` connection settings (MySQL 8, MariaDB 10.6+); the database is the schema. */
export type MysqlConnectionConfig = ServerConnectionConfig;

export interface DatabaseConfig {
  connection: {
    client: string;
    connection: SqliteConnectionConfig | PostgresConnectionConfig | MysqlConnectionConfig;
    pool?: { min?: number; max?: number };
    /** How long a request waits for a pooled connection (or a new one) before a 503; default 5000 ms. */
    acquireConnectionTimeout?: number;
    debug?: boolean;
  };
}

export interface ResolvedDatabaseConfig {
  dialect: Dialect;
  sqlite?: { filename: string };
  postgres?: PostgresConnectionConfig;
  mysql?: MysqlConnectionConfig;
  pool: { min: number; max: number };
  acquireTimeoutMs: number;
  debug: boolean;
}

const DEFAULT_ACQUIRE_TIMEOUT_MS = 5000;

const SQLITE_CLIENTS = new Set(['sqlite', 'sqlite3', 'better-sqlite3']);
const POSTGRES_CLIENTS = new Set(['postgres', 'postgresql', 'pg']);
const MYSQL_CLIENTS = new Set(['mysql', 'mysql2', 'mariadb']);

/** Resolves a config file's value against the app directory. */
export function resolveDatabaseConfig(config: DatabaseConfig, appDir: string): ResolvedDatabaseConfig {
  const client = String(config.connection?.client ?? 'sqlite');
  const debug = config.connection?.debug === true;
  const acquireTimeoutMs = Number(config.connection?.acquireConnectionTimeout ?? DEFAULT_ACQUIRE_TIMEOUT_MS);
  if (SQLITE_CLIENTS.has(client)) {
    const raw = (config.connection.connection ?? {}) as Partial<SqliteConnectionConfig>;
    const filename = raw.filename ?? '.tmp/data.db';
    const absolute = filename === ':memory:' ? filename : path.resolve(appDir, filename);
    return { dialect: 'sqlite', sqlite: { filename: absolute }, pool: { min: 1, max: 1 }, acquireTimeoutMs, debug };
  }
  if (POSTGRES_CLIENTS.has(client)) {
    const postgres = (config.connection.connection ?? {}) as PostgresConnectionConfig;
    const pool = { min: config.connection.pool?.min ?? 0, max: config.connection.pool?.max ?? 10 };
    return { dialect: 'postgres', postgres, pool, acquireTimeoutMs, debug };
  }
  if (MYSQL_CLIENTS.has(client)) {
    const mysql = (config.connection.connection ?? {}) as MysqlConnectionConfig;
    const pool = { min: config.connection.pool?.min ?? 0, max: config.connection.pool?.max ?? 10 };
    return { dialect: 'mysql', mysql, pool, acquireTimeoutMs, debug };
  }
  throw new ConfigurationError(
    `unknown database client "${client}" (use "sqlite", "postgres" or "mysql")`,
    'config/database',
  );
}

export function describeDatabase(config: ResolvedDatabaseConfig): string {
  if (config.dialect === 'sqlite') return `sqlite ${config.sqlite!.filename}`;
  if (config.dialect === 'mysql') {
    const my = config.mysql!;
    if (my.connectionString) return `mysql ${my.connectionString.replace(/\/\/[^@/]*@/, '//***@')}`;
    return `mysql ${my.host ?? '127.0.0.1'}:${my.port ?? 3306}/${my.database ?? ''}`;
  }
  const pg = config.postgres!;
  if (pg.connectionString) return `postgres ${pg.connectionString.replace(/\/\/[^@/]*@/, '//***@')}`;
  const schema = pg.schema ? ` (schema ${pg.schema})` : '';
  return `postgres ${pg.host ?? '127.0.0.1'}:${pg.port ?? 5432}/${pg.database ?? ''}${schema}`;
}

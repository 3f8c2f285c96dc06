/**
 * The connections we own, one pool per dialect, through each driver's public
 * API: `pg.Pool`, mysql2's pool, and SQLite's single writer handle
 * (sqlite-writer.ts). A lease is one connection, exclusively ours until
 * released; a connection that failed as "unavailable" is released broken and
 * the pool drops it. knex only compiles SQL (knex-config.ts): it never holds
 * a connection.
 */
import type { Pool as PgPool, PoolClient } from 'pg';
import type { Pool as MysqlPool, PoolConnection } from 'mysql2';
import type { ResolvedDatabaseConfig } from './config';
import { pgQuery, postgresClientConfig } from './postgres-driver';
import { mysqlDriverOptions, prepareMysqlSession } from './mysql-driver';
import { SqliteWriter } from './sqlite-writer';
import { acquireTimeout, type ConnectionPool, type Lease } from './lease';

export type { ConnectionPool, Lease } from './lease';

export function createPool(config: ResolvedDatabaseConfig): ConnectionPool {
  if (config.dialect === 'sqlite') return new SqliteWriter(config.sqlite!.filename, config.acquireTimeoutMs);
  if (config.dialect === 'mysql') return new MysqlConnections(config);
  return new PostgresConnections(config);
}

class PostgresConnections implements ConnectionPool {
  private readonly pool: PgPool;
  /** Clients whose session is set up (error listener, search_path); pg.Pool reuses them. */
  private readonly ready = new WeakSet<PoolClient>();
  private readonly searchPath: string | undefined;

  constructor(config: ResolvedDatabaseConfig) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool } = require('pg') as typeof import('pg');
    this.pool = new Pool({ ...postgresClientConfig(config), max: config.pool.max, min: config.pool.min });
    // An idle client losing its server is reported here; the pool drops it, the next acquire connects anew.
    this.pool.on('error', () => undefined);
    const schema = config.postgres!.schema;
    this.searchPath = schema ? `SET search_path TO "${schema.replace(/"/g, '""')}"` : undefined;
  }

  async acquire(): Promise<Lease> {
    const client = await this.pool.connect();
    if (!this.ready.has(client)) {
      // pg.Pool listens for a client's errors only while it is idle. A leased client whose server goes away between
      // two statements (PostgreSQL restarting mid-transaction) emits 'error' with no listener, which ends the process.
      // Its next statement fails as unavailable and the lease is released broken, so the error needs no handling here.
      client.on('error', () => undefined);
      if (this.searchPath) {
        try {
          await pgQuery(client, this.searchPath);
        } catch (error) {
          client.release(true);
          throw error;
        }
      }
    }
    this.ready.add(client);
    return { raw: client, release: (broken) => client.release(broken || undefined) };
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

class MysqlConnections implements ConnectionPool {
  private readonly pool: MysqlPool;
  private readonly ready = new WeakSet<PoolConnection>();

  constructor(private readonly config: ResolvedDatabaseConfig) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mysql = require('mysql2') as typeof import('mysql2');
    this.pool = mysql.createPool({ ...mysqlDriverOptions(config.mysql!, config.acquireTimeoutMs), connectionLimit: config.pool.max, waitForConnections: true });
  }

  async acquire(): Promise<Lease> {
    const connection = await this.connection();
    if (!this.ready.has(connection)) {
      // An idle connection the server closes reports it here; mysql2 then drops it from the pool.
      connection.on('error', () => undefined);
      try {
        await prepareMysqlSession(connection);
      } catch (error) {
        connection.destroy();
        throw error;
      }
      this.ready.add(connection);
    }
    return { raw: connection, release: (broken) => (broken ? connection.destroy() : connection.release()) };
  }

  /** mysql2's pool waits for a free connection without a deadline: the acquire timeout is ours. */
  private connection(): Promise<PoolConnection> {
    const timeoutMs = this.config.acquireTimeoutMs;
    return new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(acquireTimeout(timeoutMs));
      }, timeoutMs);
      this.pool.getConnection((error, connection) => {
        clearTimeout(timer);
        if (late) connection?.release();
        else if (error) reject(error);
        else resolve(connection);
      });
    });
  }

  destroy(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }
}

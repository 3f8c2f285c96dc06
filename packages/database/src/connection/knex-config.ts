/**
 * knex compiles SQL here and never runs it: the connection executes what it
 * compiles on connections it owns (pool.ts). No connection settings, so knex
 * creates no pool and opens nothing.
 */
import knexFactory, { type Knex } from 'knex';
import type { Dialect } from './config';

export const CLIENTS: Record<Dialect, string> = { sqlite: 'better-sqlite3', postgres: 'pg', mysql: 'mysql2' };

export function sqlBuilder(dialect: Dialect): Knex {
  return knexFactory({ client: CLIENTS[dialect], useNullAsDefault: dialect === 'sqlite' });
}

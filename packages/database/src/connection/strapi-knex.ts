/**
 * `strapi.db.connection` as Strapi v4 code uses it: a knex instance that runs
 * what it builds — `strapi.db.connection('table').where(…)`, `.insert(…)`,
 * `.raw(sql, bindings)` answering the driver's own result (PostgreSQL's
 * `{ rows, rowCount }`, SQLite's rows, MySQL's `[rows, fields]`), as knex does
 * under Strapi. Apps and plugins read and write tables this way.
 *
 * It is knex itself with the dialect's own client, so results and errors are
 * knex's; only where a statement runs is Tessera's: on the current
 * transaction's connection (inside `strapi.db.transaction`) or on one leased
 * from Tessera's pool, never a pool of knex's own. A statement that may write
 * (anything but a select) runs in a transaction of its own when none is open
 * and counts as a write of every type: Tessera cannot tell which types raw SQL
 * touched, so every cached total is dropped, here and (by NOTIFY or write
 * versions) in other processes.
 */
import knexFactory, { type Knex } from 'knex';
import type { Connection } from './connection';
import { CLIENTS } from './knex-config';

/** What knex's runner hands its client to execute: the SQL with native placeholders, and how it was built. */
interface KnexQuery {
  sql: string;
  bindings?: unknown[];
  method?: string;
}

/** The parts of knex's client this replaces (not in knex's public types). */
interface KnexClientInternals {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  _query(connection: unknown, query: KnexQuery): Promise<unknown>;
  transaction(work: (trx: Knex) => Promise<unknown>): Promise<unknown>;
}

const READ_METHODS = new Set(['select', 'first', 'pluck', 'columnInfo']);
const READ_SQL = /^\s*(select|show|explain)\b/i;

export function strapiKnex(connection: Connection, writtenEverything: () => void): Knex {
  const knex = knexFactory({ client: CLIENTS[connection.dialect], useNullAsDefault: connection.dialect === 'sqlite' });
  const client = knex.client as unknown as KnexClientInternals;
  const runOnDriver = client._query.bind(client);
  // knex asks its client for a connection around every query; the real one is chosen in _query below.
  client.acquireConnection = async () => connection;
  client.releaseConnection = async () => undefined;
  client._query = (_unused, query) => {
    const run = () => connection.onDriverConnection((raw) => runOnDriver(raw, query), { sql: query.sql, bindings: query.bindings ?? [] });
    if (!mayWrite(query)) return run();
    return connection.transaction(async () => {
      const result = await run();
      writtenEverything();
      return result;
    });
  };
  // knex's own transactions would take a connection of knex's: Strapi code's `strapi.db.connection.transaction(fn)`
  // runs in Tessera's instead (what `strapi.db.transaction` does), with this same knex as `trx`.
  client.transaction = (work) => connection.transaction(() => work(knex));
  return knex;
}

function mayWrite(query: KnexQuery): boolean {
  if (query.method && READ_METHODS.has(query.method)) return false;
  return !READ_SQL.test(query.sql);
}

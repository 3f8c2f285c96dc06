/**
 * Small SQL building blocks shared by the readers and the relation,
 * component and media writers. Id lists travel as one binding (JSON on
 * SQLite, an array on Postgres) so a statement's text — and its cached
 * prepared statement — is the same whatever the number of ids.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Dialect } from '../connection/config';
import type { Connection } from '../connection/connection';

/** `column IN ids` with one binding. */
export function whereIdList(dialect: Dialect, qb: Knex.QueryBuilder, column: string, ids: number[]): Knex.QueryBuilder {
  // MySQL binds client-side (no prepared statement to share): a plain list.
  if (dialect === 'mysql') return ids.length === 0 ? qb.whereRaw('1 = 0') : qb.whereIn(column, ids);
  return whereIdListBinding(dialect, qb, column, idListBinding(dialect, ids));
}

/** SQLite and PostgreSQL: the one binding that carries an id list (`whereIdListBinding` reads it). */
export function idListBinding(dialect: Dialect, ids: number[]): string {
  return dialect === 'sqlite' ? JSON.stringify(ids) : `{${ids.join(',')}}`;
}

/** SQLite and PostgreSQL: `column IN <the ids of binding>` (binding: `idListBinding`, or a template's marker). */
export function whereIdListBinding(dialect: Dialect, qb: Knex.QueryBuilder, column: string, binding: unknown): Knex.QueryBuilder {
  if (dialect === 'sqlite') return qb.whereRaw(`?? IN (SELECT value FROM json_each(?))`, [column, binding as string]);
  return qb.whereRaw(`?? = ANY(?::int[])`, [column, binding as string]);
}

export function whereIn(connection: Connection, qb: Knex.QueryBuilder, column: string, ids: number[]): Knex.QueryBuilder {
  return whereIdList(connection.dialect, qb, column, ids);
}

export function whereNotIn(connection: Connection, qb: Knex.QueryBuilder, column: string, ids: number[]): Knex.QueryBuilder {
  if (connection.dialect === 'sqlite') return qb.whereRaw(`?? NOT IN (SELECT value FROM json_each(?))`, [column, JSON.stringify(ids)]);
  if (connection.dialect === 'mysql') return ids.length === 0 ? qb : qb.whereNotIn(column, ids);
  return qb.whereRaw(`NOT (?? = ANY(?::int[]))`, [column, `{${ids.join(',')}}`]);
}

/**
 * Limits per INSERT: SQLite refuses more than 32,766 bindings in a statement, Postgres more than 65,535;
 * knex writes SQLite multi-row inserts as a compound SELECT, limited to 500 terms.
 */
const MAX_INSERT_BINDINGS = 10000;
const MAX_INSERT_ROWS = 500;

/** Inserts rows (all with the same columns) in as few statements as the drivers' binding limits allow. */
export async function insertRows(connection: Connection, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const size = Math.max(1, Math.min(MAX_INSERT_ROWS, Math.floor(MAX_INSERT_BINDINGS / Object.keys(rows[0]).length)));
  for (let start = 0; start < rows.length; start += size) {
    await connection.run(connection.knex(table).insert(rows.slice(start, start + size)));
  }
}

/** Sets `column` of each row id to its value, in one statement. */
export async function updateColumnByRowId(connection: Connection, table: string, column: string, values: Array<[number, number]>): Promise<void> {
  if (values.length === 0) return;
  const ids = values.map(([id]) => id);
  const numbers = values.map(([, value]) => value);
  const knex = connection.knex;
  if (connection.dialect === 'sqlite') {
    // One pass over the [id, value] pairs joined on the primary key; a correlated look-up per row was quadratic.
    const sql = `UPDATE ?? SET ?? = x.v FROM (SELECT json_extract(e.value, '$[0]') AS rid, json_extract(e.value, '$[1]') AS v FROM json_each(?) e) AS x WHERE ??.id = x.rid`;
    await connection.run(knex.raw(sql, [table, column, JSON.stringify(values), table]));
    return;
  }
  if (connection.dialect === 'mysql') {
    const sql = `UPDATE ?? AS t JOIN JSON_TABLE(?, '$[*]' COLUMNS (rid INT PATH '$[0]', v DOUBLE PATH '$[1]')) AS x ON t.id = x.rid SET ?? = x.v`;
    await connection.run(knex.raw(sql, [table, JSON.stringify(values), `t.${column}`]));
    return;
  }
  const sql = `UPDATE ?? AS t SET ?? = x.v FROM unnest(?::int[], ?::float8[]) AS x(rid, v) WHERE t.id = x.rid`;
  await connection.run(knex.raw(sql, [table, column, `{${ids.join(',')}}`, `{${numbers.join(',')}}`]));
}

/**
 * Postgres only: serialises the transactions that take a lock on the same
 * name until they commit (SQLite already runs one writer at a time). Relation
 * writes lock the join tables they renumber: they renumber order columns of
 * rows other entries share (a tag's `article_order`), so two concurrent writes
 * would otherwise lock those rows in different orders and deadlock, or
 * renumber from a stale read. Locks are taken in one sorted pass, so lock
 * order never depends on the body's key order.
 */
export async function advisoryLock(connection: Connection, names: string[]): Promise<void> {
  if (connection.dialect === 'sqlite' || names.length === 0) return;
  const sorted = [...new Set(names)].sort();
  if (connection.dialect === 'mysql') return mysqlRowLocks(connection, sorted);
  const sql = `SELECT pg_advisory_xact_lock(hashtext(t)) FROM unnest(?::text[]) AS t`;
  await connection.run(connection.knex.raw(sql, [`{${sorted.map((name) => `"${name}"`).join(',')}}`]));
}

export interface OrderedRow {
  id: number;
  group: number;
  order: number | null;
}

/** New 1..N numbers per group, sorted by current order (unordered rows last, by id). */
export function renumberGroups(rows: OrderedRow[]): Array<[number, number]> {
  const groups = new Map<number, OrderedRow[]>();
  for (const row of rows) {
    const list = groups.get(row.group);
    if (list) list.push(row);
    else groups.set(row.group, [row]);
  }
  const changes: Array<[number, number]> = [];
  for (const list of groups.values()) {
    list.sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.id - b.id);
    list.forEach((row, index) => {
      if (row.order !== index + 1) changes.push([row.id, index + 1]);
    });
  }
  return changes;
}

export function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** Ids for an error message: the first few, and how many in all (a list may hold 50,000). */
export function idsForMessage(ids: number[]): string {
  const shown = 20;
  return ids.length <= shown ? ids.join(', ') : `${ids.slice(0, shown).join(', ')} … (${ids.length} in all)`;
}

/** The table whose rows stand for lock names on MySQL (created by schema sync; not a Strapi table). */
export const MYSQL_LOCK_TABLE = 'tessera_locks';

/**
 * MySQL's GET_LOCK belongs to the session, not the transaction: it would
 * outlive a commit. A row lock does not, so each name is a row of
 * `tessera_locks` (its sha1), written in sorted order: an insert when new, an
 * update of itself when there. Both take the exclusive lock straight away —
 * INSERT IGNORE then SELECT … FOR UPDATE would take a shared lock first, and
 * two waiters upgrading it deadlock.
 */
async function mysqlRowLocks(connection: Connection, sorted: string[]): Promise<void> {
  const keys = sorted.map((name) => createHash('sha1').update(name).digest('hex')).sort();
  const values = keys.map(() => '(?)').join(', ');
  await connection.run(connection.knex.raw(`INSERT INTO ?? (name) VALUES ${values} ON DUPLICATE KEY UPDATE name = VALUES(name)`, [MYSQL_LOCK_TABLE, ...keys]));
}

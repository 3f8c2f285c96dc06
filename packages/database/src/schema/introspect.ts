/**
 * What the database holds now: tables with their columns, and index names.
 * Read once per sync, from the catalog of each dialect.
 */
import type { Connection } from '../connection/connection';

export interface TableSnapshot {
  columns: Map<string, Set<string>>;
  indexes: Map<string, Set<string>>;
}

export async function readSnapshot(connection: Connection): Promise<TableSnapshot> {
  if (connection.dialect === 'mysql') return readMysql(connection);
  return connection.dialect === 'sqlite' ? readSqlite(connection) : readPostgres(connection);
}

async function readSqlite(connection: Connection): Promise<TableSnapshot> {
  const columns = new Map<string, Set<string>>();
  const indexes = new Map<string, Set<string>>();
  const rows = await connection.raw(
    `SELECT m.name AS table_name, p.name AS column_name
       FROM sqlite_master m JOIN pragma_table_info(m.name) p
      WHERE m.type = 'table'`,
  );
  for (const row of rows) addTo(columns, String(row.table_name), String(row.column_name));
  const indexRows = await connection.raw(`SELECT tbl_name AS table_name, name FROM sqlite_master WHERE type = 'index'`);
  for (const row of indexRows) addTo(indexes, String(row.table_name), String(row.name));
  return { columns, indexes };
}

async function readPostgres(connection: Connection): Promise<TableSnapshot> {
  const columns = new Map<string, Set<string>>();
  const indexes = new Map<string, Set<string>>();
  const rows = await connection.raw(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  for (const row of rows) addTo(columns, String(row.table_name), String(row.column_name));
  const indexRows = await connection.raw(`SELECT tablename AS table_name, indexname AS name FROM pg_indexes WHERE schemaname = current_schema()`);
  for (const row of indexRows) addTo(indexes, String(row.table_name), String(row.name));
  // Constraint names share the index namespace on Postgres (foreign keys included).
  const constraintRows = await connection.raw(
    `SELECT tc.table_name, tc.constraint_name AS name FROM information_schema.table_constraints tc WHERE tc.table_schema = current_schema()`,
  );
  for (const row of constraintRows) addTo(indexes, String(row.table_name), String(row.name));
  return { columns, indexes };
}

async function readMysql(connection: Connection): Promise<TableSnapshot> {
  const columns = new Map<string, Set<string>>();
  const indexes = new Map<string, Set<string>>();
  const rows = await connection.raw(`SELECT table_name AS table_name, column_name AS column_name FROM information_schema.columns WHERE table_schema = DATABASE()`);
  for (const row of rows) addTo(columns, String(row.table_name), String(row.column_name));
  await readMysqlIndexes(connection, indexes);
  return { columns, indexes };
}

/** Index and constraint names per table (MySQL creates an index named after a foreign key that has none). */
export async function readMysqlIndexes(connection: Connection, indexes: Map<string, Set<string>>, table?: string): Promise<void> {
  const where = table === undefined ? '' : ' AND table_name = ?';
  const bindings = table === undefined ? [] : [table, table];
  const rows = await connection.raw(
    `SELECT table_name AS table_name, index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE()${where}
     UNION SELECT table_name, constraint_name FROM information_schema.table_constraints WHERE table_schema = DATABASE()${where}`,
    bindings,
  );
  for (const row of rows) addTo(indexes, String(row.table_name), String(row.name));
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

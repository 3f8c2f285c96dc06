/**
 * Reads the database catalog (tables, columns, indexes, row counts) the same
 * way on SQLite, Postgres and MySQL/MariaDB, through the app's own connection.
 */
import type { Connection } from '@tessera/database';

export async function tableNames(connection: Connection): Promise<string[]> {
  if (connection.dialect === 'mysql') {
    const rows = await connection.raw(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name NOT IN ('tessera_locks', 'tessera_write_versions') ORDER BY table_name`);
    return rows.map((row) => String(row.name));
  }
  const rows =
    connection.dialect === 'sqlite'
      ? await connection.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      : await connection.raw(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`);
  return rows.map((row) => String(row.name));
}

export async function columnNames(connection: Connection, table: string): Promise<string[]> {
  if (connection.dialect === 'mysql') {
    const rows = await connection.raw(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?`, [table]);
    return rows.map((row) => String(row.name)).sort();
  }
  const rows =
    connection.dialect === 'sqlite'
      ? await connection.raw(`SELECT name FROM pragma_table_info(?)`, [table])
      : await connection.raw(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?`, [table]);
  return rows.map((row) => String(row.name)).sort();
}

export async function indexNames(connection: Connection, table: string): Promise<string[]> {
  if (connection.dialect === 'mysql') {
    const rows = await connection.raw(`SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name <> 'PRIMARY'`, [table]);
    return rows.map((row) => String(row.name)).sort();
  }
  const rows =
    connection.dialect === 'sqlite'
      ? await connection.raw(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_%'`, [table])
      : await connection.raw(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND indexname NOT LIKE '%_pkey'`, [table]);
  return rows.map((row) => String(row.name)).sort();
}

export async function rowCount(connection: Connection, table: string): Promise<number> {
  const [row] = await connection.raw(`SELECT COUNT(*) AS count FROM ??`, [table]);
  return Number(row.count);
}

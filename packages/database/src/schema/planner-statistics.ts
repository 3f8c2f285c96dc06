/**
 * PostgreSQL plans from table statistics, and a table that was never analysed
 * has none: a database just restored, bulk-loaded or made by Strapi on a
 * cluster whose autovacuum has not run yet (or is off). The planner then
 * guesses, and its guesses make generic plans look cheap: after five runs of
 * a named statement PostgreSQL may keep one plan whatever the values. On a
 * Strapi-made database, whose link tables index their order columns,
 * `link.article_id = ANY($1) ORDER BY link.tag_order LIMIT $2` then walks the
 * whole order index (30,000 rows to find 75: 4 ms instead of 0.2), and
 * `populate=*` answered a third as many requests.
 *
 * So the boot analyses, once, each table the model reads that holds rows but
 * has never been analysed (`reltuples` is -1 until the first ANALYZE or
 * VACUUM). ANALYZE samples at most 30,000 rows a table, so its time is bounded
 * whatever the size, and it changes no data. Tables already analysed, empty
 * ones and other schemas' tables are left alone.
 */
import type { Connection } from '../connection/connection';

/** Analyses those of `tables` PostgreSQL never analysed that hold rows; returns their names (none on other databases). */
export async function analyzeUnanalysedTables(connection: Connection, tables: readonly string[]): Promise<string[]> {
  if (connection.dialect !== 'postgres' || tables.length === 0) return [];
  const rows = await connection.raw(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
        AND c.reltuples < 0 AND pg_relation_size(c.oid) > 0 AND c.relname = ANY(?::text[])
      ORDER BY c.relname`,
    [[...tables]],
  );
  const names = rows.map((row) => String(row.name));
  if (names.length > 0) await connection.raw(`ANALYZE ${names.map((name) => `"${name.replace(/"/g, '""')}"`).join(', ')}`);
  return names;
}

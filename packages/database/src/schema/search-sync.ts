/**
 * The search indexes of `search-options.ts`, created by the additive sync.
 *
 * SQLite: `<table>_search`, an FTS5 table with the trigram tokenizer holding a
 * copy of the searched columns, kept in sync by triggers in the writing
 * transaction. The copy maps the two characters whose JavaScript lower case is
 * ASCII (KELVIN SIGN → k, DOTTED CAPITAL I → i), so a lookup with an ASCII
 * pattern finds every row the exact operator would (conditions.ts re-checks
 * each candidate exactly). The table is ours, derived data: when the searched
 * columns change it is rebuilt, never the content table.
 *
 * PostgreSQL: a pg_trgm GIN index per searched column, which LIKE and ILIKE
 * use as they are — the queries do not change. Creating the extension needs
 * the right to; without it the sync warns and the scan is used.
 */
import type { Connection } from '../connection/connection';
import type { EntityMetadata, Metadata } from '../metadata/metadata';
import { indexName } from './names';

/** The fold applied to the indexed copy (plain SQL, so any connection can write the table). */
export function asciiFoldSql(expression: string): string {
  return `replace(replace(${expression}, char(8490), 'k'), char(304), 'i')`;
}

export async function syncSearchIndexes(connection: Connection, metadata: Metadata, changes: string[], warnings: string[]): Promise<void> {
  const searched = [...metadata.values()].filter((entity) => entity.search !== null);
  if (searched.length === 0) return;
  if (connection.dialect === 'sqlite') {
    for (const entity of searched) await syncSqliteSearch(connection, entity, changes);
    return;
  }
  // MySQL/MariaDB: no trigram index; text matches scan with exact answers (a FULLTEXT n-gram index cannot answer LIKE).
  if (connection.dialect === 'mysql') return;
  const opclass = await trigramOperatorClass(connection, warnings);
  if (!opclass) return;
  for (const entity of searched) {
    for (const column of entity.search!.columns) {
      const name = indexName(entity.tableName, column, 'trgm');
      const exists = await connection.raw('SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?', [name]);
      if (exists.length > 0) continue;
      await connection.raw(`CREATE INDEX ?? ON ?? USING gin (?? ${opclass})`, [name, entity.tableName, column]);
      changes.push(`created index ${name}`);
    }
  }
}

async function syncSqliteSearch(connection: Connection, entity: EntityMetadata, changes: string[]): Promise<void> {
  const { table, columns } = entity.search!;
  const existing = (await connection.raw('SELECT name FROM pragma_table_info(?)', [table])).map((row) => String(row.name));
  if (existing.length > 0 && existing.join(',') === columns.join(',')) return;
  if (existing.length > 0) {
    for (const suffix of ['ai', 'ad', 'au']) await connection.raw(`DROP TRIGGER IF EXISTS ${quote(`${table}_${suffix}`)}`);
    await connection.raw(`DROP TABLE ${quote(table)}`);
  }
  const list = columns.map(quote).join(', ');
  const folded = (prefix: string) => columns.map((column) => asciiFoldSql(`${prefix}.${quote(column)}`)).join(', ');
  await connection.raw(`CREATE VIRTUAL TABLE ${quote(table)} USING fts5(${list}, tokenize = 'trigram case_sensitive 0')`);
  const source = quote(entity.tableName);
  await connection.raw(`CREATE TRIGGER ${quote(`${table}_ai`)} AFTER INSERT ON ${source} BEGIN INSERT INTO ${quote(table)} (rowid, ${list}) VALUES (new.id, ${folded('new')}); END`);
  await connection.raw(`CREATE TRIGGER ${quote(`${table}_ad`)} AFTER DELETE ON ${source} BEGIN DELETE FROM ${quote(table)} WHERE rowid = old.id; END`);
  await connection.raw(
    `CREATE TRIGGER ${quote(`${table}_au`)} AFTER UPDATE OF ${list} ON ${source} BEGIN ` +
      `DELETE FROM ${quote(table)} WHERE rowid = old.id; INSERT INTO ${quote(table)} (rowid, ${list}) VALUES (new.id, ${folded('new')}); END`,
  );
  await connection.raw(`INSERT INTO ${quote(table)} (rowid, ${list}) SELECT id, ${folded(source)} FROM ${source}`);
  changes.push(`created search table ${table}`);
}

/** The schema-qualified `gin_trgm_ops`, creating the extension when it is missing and allowed. */
async function trigramOperatorClass(connection: Connection, warnings: string[]): Promise<string | null> {
  const find = async () => {
    const rows = await connection.raw(`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`);
    return rows.length > 0 ? `${quote(String(rows[0].schema))}.gin_trgm_ops` : null;
  };
  const found = await find();
  if (found) return found;
  try {
    // In a savepoint: a refusal must not abort the sync's transaction.
    await connection.raw('SAVEPOINT tessera_trgm');
    await connection.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await connection.raw('RELEASE SAVEPOINT tessera_trgm');
  } catch (error) {
    await connection.raw('ROLLBACK TO SAVEPOINT tessera_trgm').catch(() => undefined);
    const again = await find();
    if (again) return again; // another process created it meanwhile
    warnings.push(`search indexes skipped: cannot create the pg_trgm extension (${(error as Error).message}); substring filters scan instead`);
    return null;
  }
  return find();
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

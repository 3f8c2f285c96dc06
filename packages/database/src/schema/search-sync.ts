/**
 * The search indexes of `search-options.ts`, created by the additive sync.
 *
 * SQLite: `<table>_search`, an FTS5 table with the trigram tokenizer holding a
 * copy of the searched columns, kept in sync by triggers in the writing
 * transaction. The copy maps the two characters whose JavaScript lower case is
 * ASCII (KELVIN SIGN → k, DOTTED CAPITAL I → i), so a lookup with an ASCII
 * pattern finds every row the exact operator would (conditions.ts re-checks
 * each candidate exactly). It ends with two padding characters (U+0001), so
 * that every place a 2-character run occurs begins a trigram, which
 * `<table>_search_terms` (an fts5vocab table: each trigram's places, sorted by
 * trigram) finds (search-candidates.ts), where `<table>_search_counts` (each
 * trigram's totals) says it pays (search-term-gate.ts); a pattern holding the
 * padding only gets more candidates. The tables are ours, derived data: when the searched columns or
 * the triggers' text change they are rebuilt, never the content table.
 *
 * PostgreSQL: a pg_trgm GIN index per searched column, which LIKE and ILIKE
 * use as they are — the queries do not change. Creating the extension needs
 * the right to; without it the sync warns and the scan is used.
 */
import type { Connection } from '../connection/connection';
import type { EntityMetadata, Metadata } from '../metadata/metadata';
import { indexName } from './names';
import { searchCountsTableName, searchTermsTableName } from '../metadata/search-options';

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
  const terms = searchTermsTableName(table);
  const list = columns.map(quote).join(', ');
  const copy = (prefix: string) => columns.map((column) => `${asciiFoldSql(`${prefix}.${quote(column)}`)} || char(1, 1)`).join(', ');
  const source = quote(entity.tableName);
  const triggers: Record<string, string> = {
    ai: `AFTER INSERT ON ${source} BEGIN INSERT INTO ${quote(table)} (rowid, ${list}) VALUES (new.id, ${copy('new')}); END`,
    ad: `AFTER DELETE ON ${source} BEGIN DELETE FROM ${quote(table)} WHERE rowid = old.id; END`,
    au:
      `AFTER UPDATE OF ${list} ON ${source} BEGIN ` +
      `DELETE FROM ${quote(table)} WHERE rowid = old.id; INSERT INTO ${quote(table)} (rowid, ${list}) VALUES (new.id, ${copy('new')}); END`,
  };
  const counts = searchCountsTableName(table);
  const vocabularies = [
    `CREATE VIRTUAL TABLE ${quote(terms)} USING fts5vocab(${quote(table)}, 'instance')`,
    `CREATE VIRTUAL TABLE ${quote(counts)} USING fts5vocab(${quote(table)}, 'row')`,
  ];
  const triggerStatements = Object.entries(triggers).map(([suffix, body]) => `CREATE TRIGGER ${quote(`${table}_${suffix}`)} ${body}`);
  // Up to date when the copy has these columns, and the triggers (which say how the copy is made) and the vocabulary
  // tables read as built now.
  const existing = (await connection.raw('SELECT name FROM pragma_table_info(?)', [table])).map((row) => String(row.name));
  const stored = new Set(
    (await connection.raw(`SELECT sql FROM sqlite_master WHERE tbl_name IN (?, ?, ?, ?)`, [table, terms, counts, entity.tableName])).map((row) => row.sql),
  );
  if (existing.join(',') === columns.join(',') && [...vocabularies, ...triggerStatements].every((statement) => stored.has(statement))) return;
  for (const suffix of Object.keys(triggers)) await connection.raw(`DROP TRIGGER IF EXISTS ${quote(`${table}_${suffix}`)}`);
  for (const vocabulary of [terms, counts]) await connection.raw(`DROP TABLE IF EXISTS ${quote(vocabulary)}`);
  await connection.raw(`DROP TABLE IF EXISTS ${quote(table)}`);
  await connection.raw(`CREATE VIRTUAL TABLE ${quote(table)} USING fts5(${list}, tokenize = 'trigram case_sensitive 0')`);
  for (const statement of vocabularies) await connection.raw(statement);
  for (const statement of triggerStatements) await connection.raw(statement);
  await connection.raw(`INSERT INTO ${quote(table)} (rowid, ${list}) SELECT id, ${copy(source)} FROM ${source}`);
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

/**
 * Schema sync: make the database hold every table, column and index the
 * metadata needs, in the Strapi v4 layout. Additive only — it creates what is
 * missing and never alters or drops anything that exists, so an existing
 * Strapi v4 database is served in place. Returns what it changed.
 */
import type { Knex } from 'knex';
import type { Connection } from '../connection/connection';
import type { Dialect } from '../connection/config';
import { MYSQL_LOCK_TABLE } from '../relations/link-sql';
import { WRITE_VERSIONS_TABLE } from '../connection/mysql-write-versions';
import type { ColumnField, EntityMetadata, JoinTable, Metadata } from '../metadata/metadata';
import { TableSnapshot, readMysqlIndexes, readSnapshot } from './introspect';
import { indexName } from './names';
import { secondaryIndexes } from './secondary-indexes';
import { addDeclaredColumn, type TableDefinition } from './declared-tables';
import { ConfigurationError } from '@tessera/errors';
import { syncSearchIndexes } from './search-sync';
import { FILE_UID, MORPH_TABLE } from '../metadata/media';

export interface SyncReport {
  /** Every change, one line each (`created table x`, `added column x.y`, `created index z`). */
  changes: string[];
  /** What could not be done, though the app still runs (a search index without its extension). */
  warnings: string[];
  /** One line for the boot log: `created 13 tables, 31 indexes, 0 columns` or `up to date`. */
  summary: string;
}

interface PlannedIndex {
  name: string;
  columns: string[];
  unique: boolean;
  /** Over a long-text column: MySQL indexes only a prefix of those. */
  longText?: boolean;
}

interface PlannedTable {
  name: string;
  /** Adds a column to a new or existing table. */
  columns: Array<{ name: string; add: (table: Knex.CreateTableBuilder) => void }>;
  indexes: PlannedIndex[];
  /** Constraints only possible when the table is created (SQLite cannot add FKs later). */
  onCreate?: (table: Knex.CreateTableBuilder) => void;
}

/** Syncs the content types' tables and the tables plugins declared (declared-tables.ts). */
export async function syncSchema(connection: Connection, metadata: Metadata, declared: readonly TableDefinition[] = []): Promise<SyncReport> {
  const planned = planTables(metadata, connection.dialect, declared);
  const changes: string[] = [];
  const warnings: string[] = [];
  await connection.transaction(async () => {
    const snapshot = await readSnapshot(connection);
    for (const table of planned.values()) await syncTable(connection, snapshot, table, changes);
    await syncSearchIndexes(connection, metadata, changes, warnings);
  });
  return { changes, warnings, summary: summarize(changes) };
}

function summarize(changes: string[]): string {
  if (changes.length === 0) return 'up to date';
  const count = (prefix: string) => changes.filter((change) => change.startsWith(prefix)).length;
  return `created ${count('created table')} tables, ${count('created index')} indexes, ${count('added column')} columns`;
}

export function planTables(metadata: Metadata, dialect: Dialect = 'sqlite', declared: readonly TableDefinition[] = []): Map<string, PlannedTable> {
  const tables = new Map<string, PlannedTable>();
  // Entity tables first: join tables reference them with foreign keys.
  for (const entity of metadata.values()) tables.set(entity.tableName, entityTable(entity));
  for (const entity of metadata.values()) {
    if (entity.componentJoinTable) tables.set(entity.componentJoinTable, componentJoinTable(entity));
    for (const link of entity.links.values()) {
      if (link.kind !== 'relation' || !link.owner || !link.targetTable) continue;
      if (!tables.has(link.joinTable.name)) tables.set(link.joinTable.name, relationJoinTable(entity.tableName, link.targetTable, link.joinTable));
    }
  }
  const files = metadata.get(FILE_UID);
  if (files) tables.set(MORPH_TABLE, morphTable(files.tableName));
  for (const table of tesseraTables(dialect)) tables.set(table.name, table);
  for (const table of declared) {
    if (tables.has(table.name)) throw new ConfigurationError(`declared table "${table.name}" is already a table of the model`);
    tables.set(table.name, declaredTable(table));
  }
  return tables;
}

async function syncTable(connection: Connection, snapshot: TableSnapshot, table: PlannedTable, changes: string[]): Promise<void> {
  // A knex SchemaBuilder accumulates statements: a fresh one per change, run on the sync's transaction.
  const schema = () => connection.knex.schema;
  const existing = snapshot.columns.get(table.name);
  if (!existing) {
    await connection.runSchema(
      schema().createTable(table.name, (builder) => {
      for (const column of table.columns) column.add(builder);
      // MySQL: indexes before foreign keys, as Strapi creates them. A foreign key made first gets an implicit
      // index of its own name, which MySQL drops again once a later index (the unique pair) can serve it.
      if (connection.dialect === 'mysql') for (const index of table.indexes.filter((planned) => !planned.longText)) addIndex(builder, index);
      table.onCreate?.(builder);
      }),
    );
    changes.push(`created table ${table.name}`);
    // MySQL made an index for each foreign key, named after it: the planned index of that name is there already.
    if (connection.dialect === 'mysql') await readMysqlIndexes(connection, snapshot.indexes, table.name);
  } else {
    const missing = table.columns.filter((column) => !existing.has(column.name));
    if (missing.length > 0) {
      await connection.runSchema(
        schema().alterTable(table.name, (builder) => {
          for (const column of missing) column.add(builder);
        }),
      );
      for (const column of missing) changes.push(`added column ${table.name}.${column.name}`);
    }
  }
  const indexes = snapshot.indexes.get(table.name) ?? new Set<string>();
  for (const index of table.indexes) {
    if (indexes.has(index.name)) continue;
    // A unique index on existing rows could fail on data Strapi let through; only new tables get them.
    if (index.unique && existing) continue;
    if (index.longText && connection.dialect === 'mysql') {
      const columns = index.columns.map(() => `??(${MYSQL_TEXT_PREFIX})`).join(', ');
      await connection.raw(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ?? ON ?? (${columns})`, [index.name, table.name, ...index.columns]);
    } else if (!index.unique && connection.dialect === 'postgres') {
      // Sorts put NULLs first ascending on every database (reader.ts): an index built the same way serves
      // `ORDER BY … LIMIT` in both directions, where a default (NULLS LAST) one would leave Postgres sorting every row.
      const columns = index.columns.map(() => '?? NULLS FIRST').join(', ');
      await connection.raw(`CREATE INDEX ?? ON ?? (${columns})`, [index.name, table.name, ...index.columns]);
    } else {
      await connection.runSchema(schema().alterTable(table.name, (builder) => addIndex(builder, index)));
    }
    changes.push(`created index ${index.name}`);
  }
}

const LONG_TEXT_TYPES = new Set(['text', 'richtext']);
/** Characters of a long-text column a MySQL index covers (utf8mb4: 4 bytes each, within InnoDB's 3072-byte key). */
const MYSQL_TEXT_PREFIX = 255;

function addIndex(builder: Knex.CreateTableBuilder, index: PlannedIndex): void {
  if (index.unique) builder.unique(index.columns, { indexName: index.name });
  else builder.index(index.columns, index.name);
}

function entityTable(entity: EntityMetadata): PlannedTable {
  const columns = [...entity.columns.values()].map((field) => ({ name: field.column, add: (table: Knex.CreateTableBuilder) => addColumn(table, field) }));
  const indexes: PlannedIndex[] = [];
  for (const field of entity.columns.values()) {
    if (field.attribute.unique || field.type === 'uid') {
      indexes.push({ name: indexName(entity.tableName, field.column, 'unique'), columns: [field.column], unique: true, longText: LONG_TEXT_TYPES.has(field.type) });
    }
  }
  for (const { name, columns: indexed } of secondaryIndexes(entity)) {
    const longText = indexed.some((column) => LONG_TEXT_TYPES.has([...entity.columns.values()].find((field) => field.column === column)?.type ?? ''));
    indexes.push({ name, columns: indexed, unique: false, longText });
  }
  return { name: entity.tableName, columns, indexes };
}

function addColumn(table: Knex.CreateTableBuilder, field: ColumnField): void {
  const name = field.column;
  switch (field.type) {
    case 'increments':
      table.increments(name);
      return;
    case 'text':
    case 'richtext':
      // Strapi's type: longtext on MySQL (the other databases ignore the argument).
      table.text(name, 'longtext');
      return;
    case 'integer':
      table.integer(name);
      return;
    case 'biginteger':
      table.bigInteger(name);
      return;
    case 'float':
      table.double(name);
      return;
    case 'decimal':
      table.decimal(name, 10, 2);
      return;
    case 'boolean':
      table.boolean(name);
      return;
    case 'date':
      table.date(name);
      return;
    case 'time':
      table.specificType(name, 'time(3)');
      return;
    case 'datetime':
    case 'timestamp':
      table.datetime(name, { useTz: false, precision: 6 });
      return;
    case 'json':
      table.jsonb(name);
      return;
    default:
      table.string(name, 255);
  }
}

function relationJoinTable(sourceTable: string, targetTable: string, join: JoinTable): PlannedTable {
  const columns = [
    { name: 'id', add: (t: Knex.CreateTableBuilder) => void t.increments('id') },
    { name: join.joinColumn, add: (t: Knex.CreateTableBuilder) => void t.integer(join.joinColumn).unsigned() },
    { name: join.inverseJoinColumn, add: (t: Knex.CreateTableBuilder) => void t.integer(join.inverseJoinColumn).unsigned() },
  ];
  for (const order of [join.orderColumn, join.inverseOrderColumn]) {
    if (order) columns.push({ name: order, add: (t: Knex.CreateTableBuilder) => void t.double(order) });
  }
  const indexes: PlannedIndex[] = [
    { name: indexName(join.name, 'fk'), columns: [join.joinColumn], unique: false },
    { name: indexName(join.name, 'inv_fk'), columns: [join.inverseJoinColumn], unique: false },
    { name: indexName(join.name, 'unique'), columns: [join.joinColumn, join.inverseJoinColumn], unique: true },
  ];
  if (join.orderColumn) indexes.push({ name: indexName(join.name, 'order_fk'), columns: [join.orderColumn], unique: false });
  if (join.inverseOrderColumn) indexes.push({ name: indexName(join.name, 'order_inv_fk'), columns: [join.inverseOrderColumn], unique: false });
  return {
    name: join.name,
    columns,
    indexes,
    onCreate: (t) => {
      t.foreign(join.joinColumn, indexName(join.name, 'fk')).references('id').inTable(sourceTable).onDelete('CASCADE');
      t.foreign(join.inverseJoinColumn, indexName(join.name, 'inv_fk')).references('id').inTable(targetTable).onDelete('CASCADE');
    },
  };
}

function componentJoinTable(entity: EntityMetadata): PlannedTable {
  const name = entity.componentJoinTable!;
  const prefix = entity.tableName;
  return {
    name,
    columns: [
      { name: 'id', add: (t) => void t.increments('id') },
      { name: 'entity_id', add: (t) => void t.integer('entity_id').unsigned() },
      { name: 'component_id', add: (t) => void t.integer('component_id').unsigned() },
      { name: 'component_type', add: (t) => void t.string('component_type', 255) },
      { name: 'field', add: (t) => void t.string('field', 255) },
      { name: 'order', add: (t) => void t.double('order') },
    ],
    indexes: [
      { name: indexName(prefix, 'field_index'), columns: ['field'], unique: false },
      { name: indexName(prefix, 'component_type_index'), columns: ['component_type'], unique: false },
      { name: indexName(prefix, 'entity_fk'), columns: ['entity_id'], unique: false },
      { name: indexName(prefix, 'unique'), columns: ['entity_id', 'component_id', 'field', 'component_type'], unique: true },
    ],
    onCreate: (t) => {
      t.foreign('entity_id', indexName(prefix, 'entity_fk')).references('id').inTable(entity.tableName).onDelete('CASCADE');
    },
  };
}

/** Strapi's polymorphic file links (media attributes): `files_related_morphs`. */
function morphTable(filesTable: string): PlannedTable {
  return {
    name: MORPH_TABLE,
    columns: [
      { name: 'id', add: (t) => void t.increments('id') },
      { name: 'file_id', add: (t) => void t.integer('file_id').unsigned() },
      { name: 'related_id', add: (t) => void t.integer('related_id').unsigned() },
      { name: 'related_type', add: (t) => void t.string('related_type', 255) },
      { name: 'field', add: (t) => void t.string('field', 255) },
      { name: 'order', add: (t) => void t.double('order') },
    ],
    indexes: [
      { name: indexName(MORPH_TABLE, 'fk'), columns: ['file_id'], unique: false },
      { name: indexName(MORPH_TABLE, 'order_index'), columns: ['order'], unique: false },
      { name: indexName(MORPH_TABLE, 'id_column_index'), columns: ['related_id'], unique: false },
    ],
    onCreate: (t) => {
      t.foreign('file_id', indexName(MORPH_TABLE, 'fk')).references('id').inTable(filesTable).onDelete('CASCADE');
    },
  };
}

/**
 * Tessera's own tables, MySQL only: the row locks that stand in for PostgreSQL's advisory locks (link-sql.ts)
 * and the write versions that stand in for its LISTEN/NOTIFY (mysql-write-versions.ts).
 */
function declaredTable(table: TableDefinition): PlannedTable {
  return {
    name: table.name,
    columns: table.columns.map((column) => ({ name: column.name, add: (builder: Knex.CreateTableBuilder) => addDeclaredColumn(builder, column) })),
    indexes: (table.indexes ?? []).map((index) => ({ name: index.name, columns: index.columns, unique: false })),
  };
}

function tesseraTables(dialect: Dialect): PlannedTable[] {
  if (dialect !== 'mysql') return [];
  return [
    { name: MYSQL_LOCK_TABLE, columns: [{ name: 'name', add: (t) => void t.string('name', 40).primary() }], indexes: [] },
    {
      name: WRITE_VERSIONS_TABLE,
      columns: [
        { name: 'uid', add: (t) => void t.string('uid', 255).primary() },
        { name: 'version', add: (t) => void t.bigInteger('version').notNullable() },
      ],
      indexes: [],
    },
  ];
}

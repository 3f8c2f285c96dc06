/**
 * Tables a plugin owns beside the content types (users-permissions' rate-limit
 * counters, say), declared to the kernel during `register` and created and
 * extended by the schema sync with every other table — additively, as the
 * rest: a column declared later is added, nothing is dropped.
 */
import type { Knex } from 'knex';

export type DeclaredColumnType = 'string' | 'text' | 'integer' | 'biginteger';

export interface DeclaredColumn {
  name: string;
  type: DeclaredColumnType;
  /** Characters, for `string` (default 255). */
  length?: number;
  primaryKey?: boolean;
  notNull?: boolean;
}

export interface TableDefinition {
  name: string;
  columns: DeclaredColumn[];
  /** Non-unique indexes, each over its columns in order. */
  indexes?: Array<{ name: string; columns: string[] }>;
}

/** Adds a declared column to a table being created or altered. */
export function addDeclaredColumn(table: Knex.CreateTableBuilder, column: DeclaredColumn): void {
  const added =
    column.type === 'string'
      ? table.string(column.name, column.length ?? 255)
      : column.type === 'text'
        ? table.text(column.name)
        : column.type === 'integer'
          ? table.integer(column.name)
          : table.bigInteger(column.name);
  if (column.primaryKey) added.primary();
  if (column.notNull || column.primaryKey) added.notNullable();
}

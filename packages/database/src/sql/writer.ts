/**
 * Writing an entity's own row. Values arrive validated and keyed by
 * attribute; they are encoded per column here. Constraint violations from the
 * database become ValidationErrors naming the attribute, never a 500.
 */
import { ValidationError } from '@tessera/errors';
import type { Connection, Row } from '../connection/connection';
import type { Knex } from 'knex';
import type { EntityMetadata } from '../metadata/metadata';
import { encoderFor } from '../query/codec';
import { isStorableId } from '../query/coerce';
import { StatementTemplates } from './statement-templates';
import type { SqlStatement } from '../connection/sql-statement';

export class EntityWriter {
  /** Insert SQL per table and set of columns, built through knex once (a create's knex compile cost ~20 µs). */
  private readonly inserts = new StatementTemplates();

  constructor(private readonly connection: Connection) {}

  /** Inserts the entry's row; returns its id and, when asked for `returning` columns, the row with those (not on MySQL; on MariaDB 10.5+). */
  async insert(entity: EntityMetadata, values: Record<string, unknown>, returning?: string[]): Promise<{ id: number; row?: Row }> {
    const row = this.encode(entity, values);
    const rows = await this.guard(entity, () => this.connection.run(this.insertStatement(entity, row, returning)));
    return { id: Number(rows[0]?.id), row: returning ? rows[0] : undefined };
  }

  /**
   * The INSERT for `row`. Its SQL depends only on the table, the columns and which of them are undefined (knex
   * writes DEFAULT or NULL there, not a binding), so it is compiled once per such shape with markers for the
   * values. A value knex would compile into the SQL itself (a raw expression) gets its own compile.
   */
  private insertStatement(entity: EntityMetadata, row: Record<string, unknown>, returning: string[] | undefined): SqlStatement {
    // MySQL has no RETURNING: its connection answers an insert with `[{ id: insertId }]` (mysql-driver.ts).
    const returned = !this.connection.insertReturning ? undefined : returning ? [...new Set(['id', ...returning])] : ['id'];
    // knex writes no RETURNING for its mysql client (MariaDB's is the same SQL otherwise): added to the text there.
    const mariadbReturned = this.connection.dialect === 'mysql' ? returned : undefined;
    const build = (values: Record<string, unknown>) => {
      const qb = this.connection.knex(entity.tableName).insert(values);
      if (returned && !mariadbReturned) qb.returning(returned.length === 1 ? returned[0] : returned);
      return qb;
    };
    const statement = this.insertShape(entity, row, returned, build);
    if (!mariadbReturned) return statement;
    return { sql: `${statement.sql} returning ${mariadbReturned.map((column) => `\`${column}\``).join(', ')}`, bindings: statement.bindings };
  }

  private insertShape(entity: EntityMetadata, row: Record<string, unknown>, returned: string[] | undefined, build: (values: Record<string, unknown>) => Knex.QueryBuilder): SqlStatement {
    // One pass, in the row's own order (knex sorts the columns itself; the markers say where each value goes).
    let variant = returned?.join(',') ?? '';
    const values: unknown[] = [];
    for (const column in row) {
      const value = row[column];
      if (isSqlExpression(value)) return build(row).toSQL().toNative();
      if (value === undefined) {
        variant += `\0${column}:u`;
      } else {
        variant += `\0${column}`;
        values.push(value);
      }
    }
    return this.inserts.bind(entity, variant, values, (markers) => {
      const template: Record<string, unknown> = {};
      let next = 0;
      for (const column in row) template[column] = row[column] === undefined ? undefined : markers[next++];
      return build(template);
    });
  }

  /**
   * Updates the entry's row; returns how many rows it changed (0: the entry is gone, perhaps deleted by a
   * concurrent write that committed while this one waited for the row) and, asked for `returning` columns, the
   * row with those. With no column to write, the row is locked instead (and not returned), so the count still
   * means "the entry exists and no one can delete it before we commit".
   */
  async update(entity: EntityMetadata, id: number, values: Record<string, unknown>, returning?: string[]): Promise<{ changed: number; row?: Row }> {
    if (!isStorableId(id)) return { changed: 0 };
    const row = this.encode(entity, values);
    if (Object.keys(row).length === 0) return { changed: (await this.lockRow(entity, id, 'update')) ? 1 : 0 };
    const qb = this.connection.knex(entity.tableName).update(row).where('id', id);
    if (!returning) return { changed: await this.guard(entity, () => this.connection.affected(qb)) };
    // With RETURNING (not on MySQL), the rows answered are the rows changed.
    const rows = await this.guard(entity, () => this.connection.run(qb.returning([...new Set(['id', ...returning])])));
    return { changed: rows.length, row: rows[0] };
  }

  /** Deletes the entry's row; returns how many rows went (0: already gone). */
  async delete(entity: EntityMetadata, id: number): Promise<number> {
    if (!isStorableId(id)) return 0;
    return this.connection.affected(this.connection.knex(entity.tableName).delete().where('id', id));
  }

  /**
   * Inside a transaction: locks the entry's row until commit and tells whether it exists. Postgres waits here
   * for a concurrent writer of the row and then sees its outcome (a row deleted meanwhile is not returned);
   * `delete` takes the strong lock that also keeps new references to the row out, `update` the weaker one an
   * UPDATE takes. SQLite needs no lock: one transaction writes at a time.
   */
  async lockRow(entity: EntityMetadata, id: number, purpose: 'update' | 'delete'): Promise<boolean> {
    if (!isStorableId(id)) return false;
    const qb = this.connection.knex.from(entity.tableName).select('id').where('id', id);
    if (this.connection.dialect === 'postgres') {
      if (purpose === 'delete') qb.forUpdate();
      else qb.forNoKeyUpdate();
    } else if (this.connection.dialect === 'mysql') {
      qb.forUpdate();
    }
    return (await this.connection.all(qb)).length > 0;
  }

  private encode(entity: EntityMetadata, values: Record<string, unknown>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) {
      const field = entity.columns.get(name);
      if (!field || field.type === 'increments') continue;
      row[field.column] = encoderFor(field, this.connection.dialect)(value);
    }
    return row;
  }

  private async guard<T>(entity: EntityMetadata, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      throw translateConstraintError(entity, error) ?? error;
    }
  }
}

/** A knex raw expression or query builder: compiled into the statement's text, not bound. */
function isSqlExpression(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { toSQL?: unknown }).toSQL === 'function';
}

/** Maps unique-violation errors of both drivers onto the attribute they concern. */
export function translateConstraintError(entity: EntityMetadata, error: unknown): ValidationError | undefined {
  const code = (error as { code?: string }).code;
  const text = String((error as { message?: string; detail?: string }).detail ?? (error as Error).message ?? '');
  const unique = code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'ER_DUP_ENTRY';
  if (!unique) return translateJsonLimit(entity, (error as { errno?: number }).errno, text);
  const field = [...entity.columns.values()].find((candidate) => new RegExp(`\\b${candidate.column}\\b`).test(text) && candidate.type !== 'increments');
  const path = field ? [field.name] : [];
  return ValidationError.fromIssues([{ path, message: 'This attribute must be unique', name: 'ValidationError' }]);
}

const MARIADB_CONSTRAINT_FAILED = 4025;
const MYSQL_JSON_TOO_DEEP = 3157;

/**
 * MySQL/MariaDB refuse JSON nested deeper than they store (MariaDB: 32 levels, its json column's CHECK;
 * MySQL 8: 100): a 400 naming the attribute, not a 500. The other databases store the 1000 levels the
 * validator allows.
 */
function translateJsonLimit(entity: EntityMetadata, errno: number | undefined, text: string): ValidationError | undefined {
  // By number: mysql2 names MariaDB's 4025 (ER_CONSTRAINT_FAILED) after an unrelated MySQL error.
  if (errno !== MARIADB_CONSTRAINT_FAILED && errno !== MYSQL_JSON_TOO_DEEP) return undefined;
  const field = [...entity.columns.values()].find((candidate) => candidate.type === 'json' && (errno === MYSQL_JSON_TOO_DEEP || text.includes(`.${candidate.column}\``)));
  if (!field) return undefined;
  const message = `${field.name} is nested more deeply than this database stores JSON`;
  return ValidationError.fromIssues([{ path: [field.name], message, name: 'ValidationError' }]);
}

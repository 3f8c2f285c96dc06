/**
 * Writing an entity's own row. Values arrive validated and keyed by
 * attribute; they are encoded per column here. Constraint violations from the
 * database become ValidationErrors naming the attribute, never a 500.
 */
import { ValidationError } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { EntityMetadata } from '../metadata/metadata';
import { encoderFor } from '../query/codec';

export class EntityWriter {
  constructor(private readonly connection: Connection) {}

  async insert(entity: EntityMetadata, values: Record<string, unknown>): Promise<number> {
    const row = this.encode(entity, values);
    const qb = this.connection.knex(entity.tableName).insert(row).returning('id');
    const rows = await this.guard(entity, () => this.connection.run(qb));
    return Number(rows[0]?.id);
  }

  async update(entity: EntityMetadata, id: number, values: Record<string, unknown>): Promise<void> {
    const row = this.encode(entity, values);
    if (Object.keys(row).length === 0) return;
    const qb = this.connection.knex(entity.tableName).update(row).where('id', id);
    await this.guard(entity, () => this.connection.run(qb));
  }

  async delete(entity: EntityMetadata, id: number): Promise<void> {
    await this.connection.run(this.connection.knex(entity.tableName).delete().where('id', id));
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

/** Maps unique-violation errors of both drivers onto the attribute they concern. */
export function translateConstraintError(entity: EntityMetadata, error: unknown): ValidationError | undefined {
  const code = (error as { code?: string }).code;
  const text = String((error as { message?: string; detail?: string }).detail ?? (error as Error).message ?? '');
  const unique = code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique) return undefined;
  const field = [...entity.columns.values()].find((candidate) => new RegExp(`\\b${candidate.column}\\b`).test(text) && candidate.type !== 'increments');
  const path = field ? [field.name] : [];
  return ValidationError.fromIssues([{ path, message: 'This attribute must be unique', name: 'ValidationError' }]);
}

/**
 * `morphToOne` relations, as Strapi 4.26.2's `@strapi/database` stores them: no join table, but two columns of the
 * owner's table, `target_id` (the target entry's id) and `target_type` (its content type's uid), unless the
 * attribute's `morphColumn` names others. Plugins use them to hang their rows on any entry (strapi-plugin-todo's
 * task `related` to the entry being edited) and find them again by those columns: Strapi's query engine takes a
 * `where` key that is no attribute as a column name, so `{ target_id, target_type }` filters. A write gives
 * `{ id, __type }` (or null to clear); Strapi throws a plain Error (a 500) on any other value, Tessera a 400.
 *
 * Tessera keeps the two columns as private column fields named as the columns, so the schema creates them and
 * trusted server queries filter on them; reads leave them out, as Strapi's rows have only attributes. Populating
 * the relation (Strapi loads the target entry) is not done here.
 */
import { ValidationError } from '@tessera/errors';
import type { RelationAttribute } from '../model/types';
import type { ColumnField, EntityMetadata, MorphToOneField, StrapiAttribute } from './entity-metadata';

/** Strapi's `morphColumn` on an attribute, when the schema names its own columns. */
interface DeclaredMorphColumn {
  idColumn?: { name?: unknown };
  typeColumn?: { name?: unknown };
}

export function isMorphToOne(attribute: { type: string; relation?: string }): attribute is RelationAttribute {
  return attribute.type === 'relation' && attribute.relation === 'morphToOne';
}

/** The relation and its two column fields, added to `entity` (its `columns` and `morphToOne`). */
export function addMorphToOne(entity: EntityMetadata, name: string, attribute: RelationAttribute): void {
  const declared = (attribute as RelationAttribute & { morphColumn?: DeclaredMorphColumn }).morphColumn;
  const idColumn = typeof declared?.idColumn?.name === 'string' ? declared.idColumn.name : 'target_id';
  const typeColumn = typeof declared?.typeColumn?.name === 'string' ? declared.typeColumn.name : 'target_type';
  const column = (columnName: string, type: 'integer' | 'string'): ColumnField => ({
    name: columnName,
    column: columnName,
    type,
    attribute: { type, private: true },
    private: true,
    system: false,
    morphOf: name,
  });
  entity.columns.set(idColumn, column(idColumn, 'integer'));
  entity.columns.set(typeColumn, column(typeColumn, 'string'));
  entity.morphToOne.set(name, { name, idColumn, typeColumn, attribute });
}

/** The columns a write of `value` to the relation sets: the target's id and type, or both null. */
export function morphToOneColumns(field: MorphToOneField, value: unknown): Record<string, unknown> {
  if (value === null) return { [field.idColumn]: null, [field.typeColumn]: null };
  const target = typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const id = target?.id;
  const type = target?.__type;
  const validId = (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) || (typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id));
  if (!validId || typeof type !== 'string' || type === '') {
    throw new ValidationError(`${field.name} expects { id, __type } (the target entry's id and its content type's uid), or null`);
  }
  return { [field.idColumn]: Number(id), [field.typeColumn]: type };
}

/** The relation in Strapi 4.26.2's metadata shape (what Strapi code reads from `strapi.db.metadata`). */
export function morphToOneAttribute(field: MorphToOneField): StrapiAttribute {
  return {
    ...field.attribute,
    type: 'relation',
    relation: 'morphToOne',
    owner: true,
    morphColumn: { typeColumn: { name: field.typeColumn }, idColumn: { name: field.idColumn, referencedColumn: 'id' } },
  };
}

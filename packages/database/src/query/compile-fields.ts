/**
 * `fields` → the column fields to return: `a,b`, a list, or `*`; `id` always
 * comes, private fields only for trusted callers. Unnamed, a trusted read gets
 * every column but the authorship stamps (Strapi shows those relations only when
 * asked); a client's, the public ones.
 */
import type { ColumnField, EntityMetadata } from '../metadata/metadata';
import { listOfNames, unknownParameter } from './compile-context';

export function compileFields(value: unknown, entity: EntityMetadata, allowPrivate = false): ColumnField[] {
  const all = allowPrivate ? entity.serverColumns : entity.publicColumns;
  if (value === undefined || value === '*') return all;
  const names = listOfNames(value, 'fields');
  const selected = new Map<string, ColumnField>();
  selected.set('id', entity.columns.get('id')!);
  for (const name of names) {
    if (name === '*') return all;
    const field = entity.columns.get(name);
    if (!field || (field.private && !allowPrivate)) throw unknownParameter(name, (allowPrivate ? entity.allColumns : all).map((column) => column.name));
    selected.set(name, field);
  }
  return [...selected.values()];
}

/**
 * `_q`: Strapi v4's search parameter — a case-insensitive "contains" over the
 * entity's public text attributes (and id, when the term is a number).
 */
import type { EntityMetadata } from '@tessera/database';

const SEARCHABLE = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

export function searchFilter(term: string, entity: EntityMetadata): Record<string, unknown> {
  const alternatives: Array<Record<string, unknown>> = entity.publicColumns
    .filter((field) => SEARCHABLE.has(field.type))
    .map((field) => ({ [field.name]: { $containsi: term } }));
  if (/^\d{1,15}$/.test(term)) alternatives.push({ id: { $eq: term } });
  if (alternatives.length === 0) return { id: { $in: [] } };
  return { $or: alternatives };
}

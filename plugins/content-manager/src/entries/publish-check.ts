/**
 * What stops an entry from being published through the content manager: a required value it lacks, at any depth of
 * its components. Strapi 4.26.2 validates the stored entry as a creation (`validateEntityCreation`), so a stored
 * null is refused with yup's type message (`title must be a \`string\` type, but the final value was: \`null\`.`),
 * not the "must be defined" a write without the key gets. The entity service checks the same rule again when it
 * writes `publishedAt` (and words what this module leaves to it).
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import type { EntityMetadata, Metadata } from '@tessera/database';
import { linksOf } from './populate';

const YUP_TYPES: Record<string, string> = {
  string: 'string', text: 'string', richtext: 'string', email: 'string', uid: 'string', enumeration: 'string', password: 'string',
  integer: 'number', biginteger: 'number', float: 'number', decimal: 'number',
  boolean: 'boolean', date: 'date', datetime: 'date', timestamp: 'date',
};

export function publishIssues(entry: Record<string, unknown>, entity: EntityMetadata, metadata: Metadata, path: string[] = []): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const column of entity.columns.values()) {
    if (column.system || !column.attribute.required) continue;
    const type = YUP_TYPES[column.type];
    const value = entry[column.name];
    if (type && value === null) {
      const name = [...path, column.name].join('.');
      issues.push({ path: [...path, column.name], message: `${name} must be a \`${type}\` type, but the final value was: \`null\`.`, name: 'ValidationError' });
    }
  }
  for (const [name, link] of linksOf(entity)) {
    if (link.kind !== 'component' && link.kind !== 'dynamiczone') continue;
    const value = entry[name];
    if (value === null || value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, index) => {
      const record = item as Record<string, unknown>;
      const component = metadata.get(link.kind === 'component' ? link.components[0] : String(record.__component));
      const itemPath = Array.isArray(value) ? [...path, name, String(index)] : [...path, name];
      if (component) issues.push(...publishIssues(record, component, metadata, itemPath));
    });
  }
  return issues;
}

export function checkPublishable(entry: Record<string, unknown>, entity: EntityMetadata, metadata: Metadata): void {
  const issues = publishIssues(entry, entity, metadata);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
}

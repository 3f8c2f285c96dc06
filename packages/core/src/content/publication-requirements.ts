/**
 * Strapi v4's draft & publish meaning of `required`: a draft may be saved
 * without its required values; they are required once the entry is, or
 * becomes, published. The entry validator checks every other rule on every
 * write; this module finds the required values an entry still lacks — its
 * own and those of its components and dynamic-zone items, at any depth.
 */
import type { ValidationIssue } from '@tessera/errors';
import type { EntityMetadata, Metadata } from '@tessera/database';

/**
 * Issues for required values missing from `values`. With `onlyGiven`, only the
 * attributes present in `values` are looked at (an update of a published
 * entry); otherwise `values` is the whole entry. Sent components are whole.
 */
export function missingRequired(entity: EntityMetadata, values: Record<string, unknown>, metadata: Metadata, onlyGiven = false, path: string[] = []): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of entity.columns.values()) {
    if (field.system || !field.attribute.required) continue;
    if (onlyGiven && !(field.name in values)) continue;
    if (isMissing(values[field.name])) issues.push(issue([...path, field.name], `${field.name} must be defined.`));
  }
  for (const link of entity.links.values()) {
    if (link.kind !== 'component' && link.kind !== 'dynamiczone') continue;
    const value = values[link.name];
    if (value === undefined || value === null) continue;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, index) => {
      if (typeof item !== 'object' || item === null) return;
      const record = item as Record<string, unknown>;
      const uid = link.kind === 'dynamiczone' ? record.__component : link.components[0];
      const component = typeof uid === 'string' ? metadata.get(uid) : undefined;
      if (!component) return;
      const itemPath = link.repeatable || link.kind === 'dynamiczone' ? [...path, link.name, String(index)] : [...path, link.name];
      issues.push(...missingRequired(component, record, metadata, false, itemPath));
    });
  }
  return issues;
}

/** `populate` that reads every component and dynamic-zone item of an entry, at any depth. */
export function componentsPopulate(entity: EntityMetadata, metadata: Metadata, visiting = new Set<string>()): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  if (visiting.has(entity.uid)) return populate;
  visiting.add(entity.uid);
  for (const link of entity.links.values()) {
    if (link.kind !== 'component' && link.kind !== 'dynamiczone') continue;
    const nested = (uid: string) => {
      const component = metadata.get(uid);
      return { populate: component ? componentsPopulate(component, metadata, visiting) : {} };
    };
    populate[link.name] = link.kind === 'component' ? nested(link.components[0]) : { on: Object.fromEntries(link.components.map((uid) => [uid, nested(uid)])) };
  }
  visiting.delete(entity.uid);
  return populate;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

/**
 * Component and dynamic-zone values are validated with the same rules as an
 * entry's own attributes: each item goes through the entry validator built
 * from the component's metadata (always as a create, since a sent component
 * replaces the old one), nested components included. Issues carry the full
 * path (`sections.1.title`); an unknown `__component` is a 400 too.
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import type { ComponentField, EntityMetadata, Metadata } from '@tessera/database';
import { buildEntryValidator, type EntryValidator, type UnknownKeys } from './validate-entry';

/** `draft`: the items of a draft may lack required values too; `unknownKeys` applies inside each item as at the top. */
export type LinksValidator = (clean: Record<string, unknown>, draft?: boolean, unknownKeys?: UnknownKeys) => Record<string, unknown>;

export function buildComponentsValidator(entity: EntityMetadata, metadata: Metadata, cache = new Map<string, EntryValidator>()): LinksValidator {
  const fields = [...entity.links.values()].filter((link): link is ComponentField => link.kind === 'component' || link.kind === 'dynamiczone');
  if (fields.length === 0) return (clean) => clean;
  const validatorOf = (uid: string): EntryValidator | undefined => {
    let validator = cache.get(uid);
    const component = metadata.get(uid);
    if (!validator && component) {
      const own = buildEntryValidator(component);
      const nested = buildComponentsValidator(component, metadata, cache);
      validator = (data, mode, draft, unknownKeys) => nested(own(data, mode, draft, unknownKeys), draft, unknownKeys);
      cache.set(uid, validator);
    }
    return validator;
  };
  return (clean, draft = false, unknownKeys = 'refuse') => {
    const issues: ValidationIssue[] = [];
    for (const field of fields) {
      const value = clean[field.name];
      if (value === undefined || value === null) continue;
      clean[field.name] = validateField(field, value, validatorOf, issues, draft, unknownKeys);
    }
    if (issues.length > 0) throw ValidationError.fromIssues(issues);
    return clean;
  };
}

function validateField(
  field: ComponentField,
  value: unknown,
  validatorOf: (uid: string) => EntryValidator | undefined,
  issues: ValidationIssue[],
  draft: boolean,
  unknownKeys: UnknownKeys,
): unknown {
  if (field.repeatable && !Array.isArray(value)) {
    issues.push(issueAt([field.name], `${field.name} must be an array`));
    return value;
  }
  const items = field.repeatable ? (value as unknown[]) : [value];
  const cleaned = items.map((item, index) => {
    const path = field.repeatable ? [field.name, String(index)] : [field.name];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      issues.push(issueAt(path, `${field.name} items must be objects`));
      return item;
    }
    const { __component, id, ...data } = item as Record<string, unknown>;
    // The id names the component to update in place (the database writes it there when the field holds it, as
    // Strapi does), so it is handed on; the component's own attributes are validated without it.
    const uid = field.kind === 'dynamiczone' ? __component : field.components[0];
    const validator = typeof uid === 'string' && field.components.includes(uid) ? validatorOf(uid) : undefined;
    if (!validator) {
      issues.push(issueAt([...path, '__component'], `${field.name}: unknown component ${componentName(uid)}; expected one of ${field.components.join(', ')}`));
      return item;
    }
    try {
      const clean = validator(data, 'create', draft, unknownKeys) as Record<string, unknown>;
      const kept = id === undefined ? clean : { id, ...clean };
      return field.kind === 'dynamiczone' ? { __component: uid, ...kept } : kept;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const nested = (error.details as { errors?: ValidationIssue[] }).errors ?? [issueAt([], error.message)];
      for (const inner of nested) issues.push({ ...inner, path: [...path, ...inner.path] });
      return item;
    }
  });
  return field.repeatable ? cleaned : cleaned[0];
}

function issueAt(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

/** The `__component` sent, for a message: any value, any depth, never serialised whole. */
function componentName(uid: unknown): string {
  if (typeof uid === 'string') return JSON.stringify(uid.length > 60 ? `${uid.slice(0, 57)}...` : uid);
  if (uid === undefined || uid === null) return 'null';
  if (typeof uid === 'object') return Array.isArray(uid) ? 'a list' : 'an object';
  return String(uid);
}

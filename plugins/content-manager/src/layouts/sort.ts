/**
 * Whether a default sort names what the list may be sorted by (Strapi 4.26.2's `isValidDefaultSort`): the value is
 * read as a query string (`title`, `author[name]`) and valid when nothing in it is dropped by the sort sanitizer:
 * at the top, the type's sortable attributes; through a relation, component or media, the target's listable
 * attributes as Strapi's registry holds them (there relations are never listable, having no `relationType`).
 */
import qs from 'qs';
import { linkTarget } from '@tessera/database';
import { sortableAttributes } from './attribute-rules';
import { isPlainObject } from './configuration';
import type { CmModel, ModelIndex } from './model';

/** A model as `strapi.getModel` has it: every registered attribute, relations without the content manager's keys. */
function registryView(model: CmModel): CmModel {
  return { ...model, attributes: model.allAttributes };
}

function nestedTarget(models: ModelIndex, schema: CmModel, key: string): CmModel | undefined {
  const attribute = schema.allAttributes[key] ?? schema.attributes[key];
  if (!attribute) return undefined;
  if (attribute.type === 'component') return models.component(attribute.component);
  // A relation's target, or for media the kernel's file type (whose uid the kernel owns, not this plugin).
  const target = linkTarget(attribute);
  return target === undefined ? undefined : models.contentType(target);
}

function keepsEverything(models: ModelIndex, schema: CmModel, value: Record<string, unknown>): boolean {
  const allowed = sortableAttributes(schema);
  for (const [key, nested] of Object.entries(value)) {
    if (!allowed.includes(key)) return false;
    if (!isPlainObject(nested)) continue;
    const target = nestedTarget(models, schema, key);
    if (target && !keepsEverything(models, registryView(target), nested)) return false;
  }
  return true;
}

export function isValidDefaultSort(models: ModelIndex, schema: CmModel, value: unknown): boolean {
  // qs reads a string; anything else reads as no sort at all, which is valid.
  const parsed = typeof value === 'string' ? qs.parse(value) : {};
  return keepsEverything(models, schema, parsed);
}

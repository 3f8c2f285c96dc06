/**
 * Which attributes the content manager lists, sorts, searches and edits (Strapi 4.26.2's
 * `services/utils/configuration/attributes`): the rules every default layout, every sync and every PUT check use.
 * An attribute the schema's `config` hides (`config.attributes.<name>.hidden`) is neither listed nor edited.
 */
import type { CmAttribute, CmModel } from './model';

const NON_SORTABLES = ['component', 'json', 'media', 'richtext', 'dynamiczone', 'blocks'];
const SORTABLE_RELATIONS = ['oneToOne', 'manyToOne'];
const NON_LISTABLES = ['json', 'password', 'richtext', 'dynamiczone', 'blocks'];
const LISTABLE_RELATIONS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'];
const TIMESTAMPS = ['createdAt', 'updatedAt'];
const CREATOR_FIELDS = ['createdBy', 'updatedBy'];

const has = (schema: CmModel, name: string) => Object.prototype.hasOwnProperty.call(schema.attributes, name);
const isHidden = (schema: CmModel, name: string) => schema.hidden.includes(name);
const isRelation = (attribute: CmAttribute) => attribute.type === 'relation';

export function isListable(schema: CmModel, name: string): boolean {
  if (!has(schema, name) || isHidden(schema, name)) return false;
  const attribute = schema.attributes[name];
  if (NON_LISTABLES.includes(attribute.type)) return false;
  return !(isRelation(attribute) && !LISTABLE_RELATIONS.includes(String(attribute.relationType)));
}

export function isSortable(schema: CmModel, name: string): boolean {
  if (!has(schema, name)) return false;
  if (schema.modelType === 'component' && name === 'id') return false;
  const attribute = schema.attributes[name];
  if (NON_SORTABLES.includes(attribute.type)) return false;
  return !(isRelation(attribute) && !SORTABLE_RELATIONS.includes(String(attribute.relationType)));
}

export const isSearchable = isSortable;

/** Shown in the edit view by default: not the id, the timestamps, `publishedAt` or the creator fields. */
export function isVisible(schema: CmModel, name: string): boolean {
  if (!has(schema, name) || isHidden(schema, name)) return false;
  return name !== 'id' && !TIMESTAMPS.includes(name) && name !== 'publishedAt' && !CREATOR_FIELDS.includes(name);
}

/** May be placed in the edit layout. */
export const hasEditableAttribute = isVisible;

export function hasRelationAttribute(schema: CmModel, name: string): boolean {
  return isVisible(schema, name) && isRelation(schema.attributes[name]);
}

/** The first string attribute, else `id`: a type's default main field, sort and relation label. */
export function defaultMainField(schema: CmModel): string {
  return Object.keys(schema.attributes).find((name) => name !== 'id' && schema.attributes[name].type === 'string') ?? 'id';
}

/**
 * What a default sort may name (`getSortableAttributes`): id, the listable attributes, the hidden ones a writer may
 * set (`publishedAt`, `locale`), and the creator fields.
 */
export function sortableAttributes(schema: CmModel): string[] {
  const listable = Object.keys(schema.attributes).filter((name) => isListable(schema, name));
  const all = schema.allAttributes;
  const hiddenWritable = Object.keys(all).filter((name) => {
    const attribute = all[name];
    const visible = name !== 'id' && !TIMESTAMPS.includes(name) && attribute.visible !== false;
    const writable = name !== 'id' && !TIMESTAMPS.includes(name) && attribute.writable !== false;
    return !visible && writable;
  });
  return ['id', ...listable, ...hiddenWritable, ...CREATOR_FIELDS];
}

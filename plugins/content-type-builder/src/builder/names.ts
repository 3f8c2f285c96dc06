/**
 * Names the builder compares and refuses, as Strapi 4.26.2's builder does: names are compared in snake case
 * (lodash's `snakeCase`: `blogPost`, `blog-post` and `BLOG_POST` are one name), and its reserved names.
 */

/** lodash's `snakeCase` for the names the builder meets (letters, digits, separators). */
export function snakeCase(value: string): string {
  const words = value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return words.map((word) => word.toLowerCase()).join('_');
}

/** `GET /content-type-builder/reserved-names`, Strapi 4.26.2's list. */
export const RESERVED_NAMES = {
  models: ['boolean', 'date', 'date-time', 'time', 'upload', 'then', 'rest'],
  attributes: ['id', 'created_at', 'updated_at', 'published_at', 'created_by_id', 'updated_by_id', 'created_by', 'updated_by'],
};

/** Attribute names no schema may use (Strapi's FORBIDDEN_ATTRIBUTE_NAMES, then its reserved attribute names). */
export const FORBIDDEN_ATTRIBUTES = ['__component', '__contentType', ...RESERVED_NAMES.attributes];

export const NAME_REGEX = /^[A-Za-z][_0-9A-Za-z]*$/;
export const COLLECTION_NAME_REGEX = /^[A-Za-z][-_0-9A-Za-z]*$/;
export const KEBAB_CASE = /^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/;

/** The attribute types a content type may declare (Strapi's DEFAULT_TYPES, then uid, component, dynamiczone, customField). */
export const CONTENT_TYPE_TYPES = [
  'media', 'string', 'text', 'richtext', 'blocks', 'json', 'enumeration', 'password', 'email', 'integer', 'biginteger',
  'float', 'decimal', 'date', 'time', 'datetime', 'timestamp', 'boolean', 'relation', 'uid', 'component', 'dynamiczone', 'customField',
];

/** The relation kinds each kind of content type may declare. */
export const RELATIONS_BY_KIND: Record<string, string[]> = {
  singleType: ['oneToOne', 'oneToMany', 'morphOne', 'morphMany', 'morphToOne', 'morphToMany'],
  collectionType: ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'morphOne', 'morphMany', 'morphToOne', 'morphToMany'],
};

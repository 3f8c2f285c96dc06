/**
 * Names the builder compares and refuses, as Strapi 4.26.2's builder does: names are compared in snake case
 * (lodash's `snakeCase`: `blogPost`, `blog-post` and `BLOG_POST` are one name), and its reserved names.
 */

/** lodash's `snakeCase` for the names the builder meets (letters, digits, separators). */
export function snakeCase(value: string): string {
  const words = value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // The last capital of a run before a lower-case letter starts a word (`JSONData` → `JSON Data`); a lookahead, not
    // `([A-Z]+)([A-Z][a-z])`, which backtracks polynomially on long runs of capitals.
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
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

/** The attribute types and relation kinds a component may declare (no uid, no dynamic zone; relations one way out). */
export const COMPONENT_TYPES = [...CONTENT_TYPE_TYPES.filter((type) => type !== 'uid' && type !== 'dynamiczone')];
export const COMPONENT_RELATIONS = ['oneToOne', 'oneToMany'];
export const ICON_REGEX = /^[A-Za-z0-9][-A-Za-z0-9]*$/;
export const CATEGORY_NAME_REGEX = /^[A-Za-z][-_0-9A-Za-z]*$/;

/**
 * Strapi's `nameToSlug` / `nameToCollectionName` (`@sindresorhus/slugify` with `-` or `_`) for the names people
 * type: accents dropped, words split at spaces, punctuation and camel case, lower case.
 */
export function slugify(value: string, separator: '-' | '_'): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(?=[A-Z][a-z\d])/g, '$1 ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replaceAll(' ', separator);
}

/** Words whose plural is not made with an ending. */
const IRREGULAR: Array<[string, string]> = [['person', 'people'], ['child', 'children'], ['mouse', 'mice'], ['foot', 'feet'], ['tooth', 'teeth']];

/**
 * English plurals as `pluralize` makes them for regular nouns (the builder names a component's table with one):
 * `Quote` → `Quotes`, `Category` → `Categories`, `Box` → `Boxes`, `Hero` → `Heroes`, `Person` → `People`.
 * Rarer irregular and uncountable nouns may differ from Strapi's; the name is only the new table's.
 */
export function pluralize(value: string): string {
  const upper = /[A-Z]{2}$/.test(value);
  const ending = (suffix: string) => (upper ? suffix.toUpperCase() : suffix);
  for (const [word, plural] of IRREGULAR) {
    if (!value.toLowerCase().endsWith(word)) continue;
    // As pluralize restores case: `Person` → `People`, `PERSON` → `PEOPLE`, `person` → `people`.
    const replaced = value.slice(-word.length);
    const cased = replaced === replaced.toUpperCase() ? plural.toUpperCase() : replaced[0] === replaced[0]!.toUpperCase() ? `${plural[0]!.toUpperCase()}${plural.slice(1)}` : plural;
    return `${value.slice(0, -word.length)}${cased}`;
  }
  if (/(?:her|at|gr)o$/i.test(value)) return `${value}${ending('es')}`;
  if (/sis$/i.test(value)) return `${value.slice(0, -2)}${ending('es')}`;
  if (/(?:kni|wi|li)fe$/i.test(value)) return `${value.slice(0, -2)}${ending('ves')}`;
  if (/(?:ar|l|ea|eo|oa|hoo)f$/i.test(value)) return `${value.slice(0, -1)}${ending('ves')}`;
  if (/([^aeiouy]|qu)y$/i.test(value)) return `${value.slice(0, -1)}${ending('ies')}`;
  if (/(x|ch|ss|sh|zz|[^aou]us)$/i.test(value)) return `${value}${ending('es')}`;
  // A word already ending in s is taken as plural (pluralize's `s?$` rule).
  if (/s$/i.test(value)) return value;
  return `${value}${ending('s')}`;
}

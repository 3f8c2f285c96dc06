/**
 * Every way a client can write `populate`, reduced to one form: a list of
 * `[attribute, value]` pairs, and the merge of two values for one attribute.
 *
 * Real frontends mix the forms in one query, and Strapi v4 means the union:
 *   - dotted paths sharing a head: `populate=category.articles.tags,category.articles.author`
 *     (also `populate[0]=a.b&populate[1]=a.c`) load both `tags` and `author`;
 *   - a bracket form beside a plain one: `populate[tags][fields][0]=name&populate=category`,
 *     which qs ≥ 6.12 parses to `[{ tags: {…} }, 'category']` (qs 6.11, Strapi 4.13's,
 *     to `{ tags: {…}, category: true }`): both are `tags` with its fields, and `category`;
 *     with more bracketed keys after the plain one qs ≥ 6.12 makes `{ 0: {…}, 1: 'category', seo: {…} }`,
 *     whose numeric keys are list items too (no attribute is named by digits).
 * So a list may hold names, dotted paths and populate objects, and two values
 * for one attribute merge deeply (their `populate`s become one list, to merge
 * again one level down) instead of the last one winning.
 *
 * Values stay raw here: whether a key is an attribute is known only to the
 * compiler, which ignores unknown keys (Strapi v4) before reading their values.
 */
import { arrayLike, invalidParameter, isPlainObject } from './compile-context';

/** What one attribute's value means once read: not loaded, loaded as is, or loaded with its own parameters. */
export type PopulateSpec = boolean | Record<string, unknown>;

/** `populate` in any form → `[attribute or '*', raw value]` pairs, in the order given. */
export function populatePairs(value: unknown): Array<[string, unknown]> {
  if (value === '*' || value === true || value === 'true') return [['*', true]];
  if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter(Boolean).map(dotted);
  const list = arrayLike(value);
  if (list) return list.flatMap(listItemPairs);
  if (isPlainObject(value)) {
    // No attribute is named by digits: a numeric key is a list item qs kept beside named ones
    // (`populate[blocks][populate]=x&populate=localizations&populate[seo]=y` → `{ 0: { blocks }, 1: 'localizations', seo }`).
    return Object.entries(value).flatMap(([key, item]): Array<[string, unknown]> => (INDEX.test(key) ? listItemPairs(item) : [[key, item]]));
  }
  throw invalidParameter('populate');
}

const INDEX = /^\d+$/;

/** One item of a populate list: a name, a dotted path, `true` (`*`) or a populate object. */
function listItemPairs(item: unknown): Array<[string, unknown]> {
  if (typeof item !== 'string' && item !== true && !isPlainObject(item)) throw invalidParameter('populate');
  return populatePairs(item);
}

/** `a.b.c` → `a` populated with `b.c`. */
function dotted(path: string): [string, unknown] {
  const [head, ...rest] = path.split('.');
  return [head, rest.length === 0 ? true : { populate: rest.join('.') }];
}

/**
 * One attribute's raw value → its meaning. Strings follow Strapi v4's forced
 * boolean cast (`false`, `f`, `0` and the empty string are false; any other
 * string, `populate[category]=name` or `populate[seo]=metaSocial` included,
 * is true). `strict` refuses strings that are neither a boolean nor `*`, since
 * they say something Strapi silently ignores.
 */
export function populateSpec(raw: unknown, key: string, strict: boolean): PopulateSpec {
  if (raw === true || raw === false) return raw;
  if (isPlainObject(raw)) return raw;
  if (typeof raw === 'string') {
    if (FALSE_STRINGS.has(raw)) return false;
    if (strict && !TRUE_STRINGS.has(raw)) throw invalidParameter('populate', `bad value for ${key}: use true, false, * or an object`);
    return true;
  }
  throw invalidParameter('populate', `bad value for ${key}`);
}

const FALSE_STRINGS = new Set(['false', 'f', '0', '']);
const TRUE_STRINGS = new Set(['true', 't', '1', '*']);

/** Two values for one attribute → their union: `populate`s join into one list, `on` merges per component, other options: the later wins. */
export function mergeSpecs(first: PopulateSpec, second: PopulateSpec): PopulateSpec {
  if (first === false || second === false) return second;
  if (first === true) return second;
  if (second === true) return first;
  const merged: Record<string, unknown> = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const previous = merged[key];
    if (previous === undefined) merged[key] = value;
    else if (key === 'populate') merged[key] = [...asList(previous), ...asList(value)];
    else if (key === 'on' && isPlainObject(previous) && isPlainObject(value)) merged[key] = mergeOn(previous, value);
    else merged[key] = value;
  }
  return merged;
}

/** A populate value as list items (`populatePairs` reads a list of names, paths and objects as their union). */
function asList(value: unknown): unknown[] {
  return arrayLike(value) ?? [value];
}

function mergeOn(first: Record<string, unknown>, second: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...first };
  for (const [uid, value] of Object.entries(second)) {
    const previous = merged[uid];
    merged[uid] = previous === undefined ? value : mergeSpecs(populateSpec(previous, uid, false), populateSpec(value, uid, false));
  }
  return merged;
}

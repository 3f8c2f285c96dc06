/**
 * The forms `populate` takes, reduced to one list of `[attribute, spec]`
 * pairs, one pair per attribute, as Strapi v4 reads them:
 *
 *   `*` · `a,b.c` · `['a', 'b.c']`            names and dotted paths (`b.c` populates `c` inside `b`)
 *   `{ a: true | '*' | 'true' }`               populate `a`
 *   `{ a: 'false' | 'f' | '0' | '' | false }`  leave `a` out
 *   `{ a: 'anything else' }`                   populate `a` (Strapi casts the string to a boolean: `populate[seo]=metaSocial`)
 *   `{ a: { fields, filters, sort, populate, count, on } }`
 *
 * Paths sharing a head are merged (`blocks.articles.image,blocks.faq` populates both inside `blocks`): the last one
 * does not replace the others.
 */
import { arrayLike, invalidParameter, isPlainObject } from './compile-context';

export type PopulateSpec = true | Record<string, unknown>;

/** Strapi's boolean cast of a string populate value (`parseType({ type: 'boolean', forceCast: true })`). */
const FALSE_STRINGS = new Set(['false', 'f', '0', '']);

export function populateEntries(value: unknown): Array<[string, PopulateSpec]> {
  const merged = new Map<string, PopulateSpec>();
  for (const [name, spec] of forms(value)) merged.set(name, merged.has(name) ? mergeSpecs(merged.get(name)!, spec) : spec);
  return [...merged];
}

function forms(value: unknown): Array<[string, PopulateSpec]> {
  if (value === '*' || value === true || value === 'true') return [['*', true]];
  if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter(Boolean).map(dotted);
  const list = arrayLike(value);
  if (list) {
    return list.flatMap((item) => {
      if (typeof item !== 'string') throw invalidParameter('populate');
      return forms(item);
    });
  }
  if (isPlainObject(value)) {
    return Object.entries(value).map(([key, spec]): [string, PopulateSpec] => {
      if (spec === true) return [key, true];
      if (spec === false) return [key, { __skip: true }];
      if (typeof spec === 'string') return [key, FALSE_STRINGS.has(spec) ? { __skip: true } : true];
      if (isPlainObject(spec)) return [key, spec];
      throw invalidParameter('populate', `bad value for ${key}`);
    });
  }
  throw invalidParameter('populate');
}

function dotted(path: string): [string, PopulateSpec] {
  const [head, ...rest] = path.split('.');
  return [head, rest.length === 0 ? true : { populate: rest.join('.') }];
}

/** Two specs for one attribute: populating it with both sets of nested populates (options of the later one win). */
function mergeSpecs(first: PopulateSpec, second: PopulateSpec): PopulateSpec {
  if (first === true) return second;
  if (second === true) return first;
  if (first.__skip) return second;
  if (second.__skip) return first;
  const populate = mergeNested(first.populate, second.populate);
  return { ...first, ...second, ...(populate === undefined ? {} : { populate }) };
}

function mergeNested(first: unknown, second: unknown): unknown {
  if (first === undefined) return second;
  if (second === undefined) return first;
  const simple = (value: unknown) => typeof value === 'string' || arrayLike(value) !== undefined;
  if (simple(first) && simple(second)) return [...toList(first), ...toList(second)];
  // Either is an object form: both as objects of specs, merged per attribute.
  const merged = new Map<string, PopulateSpec>();
  for (const [name, spec] of [...populateEntries(first), ...populateEntries(second)]) merged.set(name, merged.has(name) ? mergeSpecs(merged.get(name)!, spec) : spec);
  return Object.fromEntries(merged);
}

function toList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return (arrayLike(value) ?? []).map(String);
}

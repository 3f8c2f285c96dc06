/**
 * Schema validation at boot: every problem in a `schema.json` or component
 * file stops the boot with a message naming the file and what to fix.
 * Checks that need the whole model (relation targets, inverse sides,
 * duplicate names) run after everything is loaded.
 */
import { closest, ConfigurationError } from '@tessera/errors';
import { misspeltKey, type KeyPlace } from './schema-keys';
import { checkPattern } from './pattern-safety';
import { settleTwoOwners } from './two-owner-relations';
import {
  RELATION_KINDS,
  SCALAR_TYPES,
  type Attribute,
  type Component,
  type ContentType,
} from '@tessera/database';

const ATTRIBUTE_TYPES = new Set<string>([...SCALAR_TYPES, 'relation', 'media', 'component', 'dynamiczone']);
const RELATION_KIND_SET = new Set<string>(RELATION_KINDS);
const RESERVED = new Set(['id', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations', '__component', '__typename']);
/** i18n's attributes, which published plugins declare in their own schemas (Strapi lets them). */
const LOCALIZATION_ATTRIBUTES = new Set(['locale', 'localizations']);
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Table names: Strapi takes `collectionName` as it is, and published schemas use hyphens (`my-plugin_items`). */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const NUMERIC_TYPES = new Set(['integer', 'biginteger', 'float', 'decimal']);
const LENGTH_TYPES = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration']);

type RawObject = Record<string, unknown>;

export interface ShapeOptions {
  /** A plugin's schema: it may declare i18n's `locale`/`localizations` itself. */
  plugin?: boolean;
  /**
   * Where a misspelt key is reported instead of stopping the boot: for a plugin's schemas, which the app's
   * author cannot edit (a published plugin's `"require": false`). Strapi ignores the key; so does Tessera, saying so.
   */
  warn?: (message: string) => void;
}

/** Checks one content type's own shape (no cross-type checks); a missing `kind` is a collection type, as in Strapi. */
export function validateContentTypeShape(raw: unknown, file: string, options: ShapeOptions = {}): void {
  const fail = (message: string): never => {
    throw new ConfigurationError(message, file);
  };
  if (!isObject(raw)) fail('schema must be a JSON object');
  const schema = raw as RawObject;
  const misspelt = options.warn ?? fail;
  checkKeys(schema, 'schema', misspelt);
  if (isObject(schema.info)) checkKeys(schema.info as RawObject, 'info', misspelt);
  if (isObject(schema.options)) checkKeys(schema.options as RawObject, 'options', misspelt);
  if (schema.kind !== undefined && schema.kind !== 'collectionType' && schema.kind !== 'singleType') {
    fail(`"kind" must be "collectionType" or "singleType", got ${JSON.stringify(schema.kind)}`);
  }
  if (!isObject(schema.info)) fail('"info" is missing');
  const info = schema.info as RawObject;
  for (const key of ['singularName', 'pluralName'] as const) {
    if (typeof info[key] !== 'string' || !info[key]) fail(`"info.${key}" is missing`);
    if (!KEBAB.test(info[key] as string)) fail(`"info.${key}" must be kebab-case (e.g. "blog-post"), got "${info[key]}"`);
  }
  if (typeof info.displayName !== 'string' || !info.displayName) fail('"info.displayName" is missing');
  if (schema.collectionName !== undefined && (typeof schema.collectionName !== 'string' || !TABLE_NAME.test(schema.collectionName))) {
    fail('"collectionName" must be a table name (letters, digits, underscores, hyphens)');
  }
  validateAttributes(schema.attributes, file, options);
}

export function validateComponentShape(raw: unknown, file: string, options: ShapeOptions = {}): void {
  if (!isObject(raw)) throw new ConfigurationError('component must be a JSON object', file);
  const schema = raw as RawObject;
  checkKeys(
    schema,
    'schema',
    options.warn ??
      ((message) => {
        throw new ConfigurationError(message, file);
      }),
  );
  if (schema.collectionName !== undefined && (typeof schema.collectionName !== 'string' || !TABLE_NAME.test(schema.collectionName))) {
    throw new ConfigurationError('"collectionName" must be a table name (letters, digits, underscores, hyphens)', file);
  }
  validateAttributes(schema.attributes, file, options);
}

function checkKeys(object: RawObject, place: KeyPlace, fail: (message: string) => void): void {
  const problem = misspeltKey(object, place);
  if (problem) fail(problem);
}

function validateAttributes(raw: unknown, file: string, options: ShapeOptions = {}): void {
  if (!isObject(raw)) throw new ConfigurationError('"attributes" must be an object', file);
  for (const [name, attribute] of Object.entries(raw as RawObject)) validateAttribute(name, attribute, raw as RawObject, file, options);
}

export function validateAttribute(name: string, raw: unknown, all: RawObject, file: string, options: ShapeOptions = {}): void {
  const fail = (message: string): never => {
    throw new ConfigurationError(`attribute "${name}": ${message}`, file);
  };
  if (!IDENTIFIER.test(name)) fail('name must start with a letter and hold only letters, digits and underscores');
  if (RESERVED.has(name) && !(options.plugin && LOCALIZATION_ATTRIBUTES.has(name))) fail('this name is reserved');
  if (!isObject(raw)) fail('must be an object with a "type"');
  const attribute = raw as RawObject;
  // A published plugin's schema is reported, not refused, where Strapi ignores what it says (a misspelt key, an
  // option its type has no use for: strapi-plugin-ezforms' `"min": 1` on a string); the app's own schemas stay strict.
  const ignored = options.warn ? (message: string) => options.warn!(`attribute "${name}": ${message}`) : fail;
  checkKeys(attribute, 'attribute', ignored);
  const type = attribute.type;
  if (type === 'customField') {
    // Checked as its registered type once plugins have registered (strapi/custom-fields.ts).
    if (typeof attribute.customField !== 'string' || !/^(plugin::[\w-]+\.[\w$-]+|global::[\w$-]+)$/.test(attribute.customField)) {
      fail('"customField" must name a registered custom field ("plugin::<plugin>.<name>" or "global::<name>")');
    }
    return;
  }
  if (typeof type !== 'string' || !ATTRIBUTE_TYPES.has(type)) {
    fail(`unknown type ${JSON.stringify(type)} (known: ${[...ATTRIBUTE_TYPES].join(', ')})`);
  }
  if (type === 'enumeration') {
    const values = attribute.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every((value) => typeof value === 'string' && value !== '')) {
      fail('"enum" must be a non-empty list of strings');
    }
  }
  if (type === 'uid' && attribute.targetField !== undefined) {
    const target = all[attribute.targetField as string];
    if (!isObject(target) || !['string', 'text', 'uid'].includes(String(target.type))) {
      fail(`"targetField" must name a string attribute, got "${attribute.targetField}"`);
    }
  }
  if (type === 'relation') {
    if (typeof attribute.relation !== 'string' || !RELATION_KIND_SET.has(attribute.relation)) {
      fail(`unknown relation ${JSON.stringify(attribute.relation)} (known: ${RELATION_KINDS.join(', ')})`);
    }
    const polymorphic = String(attribute.relation).startsWith('morph');
    if (!polymorphic && (typeof attribute.target !== 'string' || !attribute.target)) fail('"target" is missing');
    if (attribute.inversedBy && attribute.mappedBy) fail('a relation cannot have both "inversedBy" and "mappedBy"');
  }
  if (type === 'component' && (typeof attribute.component !== 'string' || !attribute.component.includes('.'))) {
    fail('"component" must name a component as "category.name"');
  }
  if (type === 'dynamiczone') {
    const components = attribute.components;
    if (!Array.isArray(components) || components.length === 0 || !components.every((uid) => typeof uid === 'string')) {
      fail('"components" must be a non-empty list of component names');
    }
  }
  for (const key of ['min', 'max'] as const) {
    if (attribute[key] !== undefined && !isFiniteNumberLike(attribute[key])) fail(`"${key}" must be a number`);
    if (attribute[key] !== undefined && !NUMERIC_TYPES.has(String(type)) && !['component', 'dynamiczone', 'media', 'date', 'datetime', 'time'].includes(String(type))) {
      ignored(`"${key}" does not apply to ${type}`);
    }
  }
  if (attribute.min !== undefined && attribute.max !== undefined && Number(attribute.min) > Number(attribute.max)) fail('"min" is greater than "max"');
  for (const key of ['minLength', 'maxLength'] as const) {
    const value = attribute[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 0) fail(`"${key}" must be a non-negative integer`);
    if (!LENGTH_TYPES.has(String(type))) ignored(`"${key}" does not apply to ${type}`);
  }
  if (attribute.regex !== undefined) {
    if (typeof attribute.regex !== 'string') fail('"regex" must be a string');
    try {
      new RegExp(attribute.regex as string);
    } catch {
      fail(`"regex" is not a valid regular expression: ${attribute.regex}`);
    }
    // It runs on request input: one that can backtrack would let one request hold the server (ReDoS).
    const verdict = checkPattern(attribute.regex as string);
    if (verdict.status === 'vulnerable') {
      fail(`"regex" ${attribute.regex} can backtrack (${verdict.complexity} time, e.g. on ${JSON.stringify(verdict.attack)}): one request could hold the server; rewrite it so no two parts can match the same characters`);
    }
  }
  for (const key of ['required', 'unique', 'private', 'index'] as const) {
    if (attribute[key] !== undefined && typeof attribute[key] !== 'boolean') fail(`"${key}" must be true or false`);
  }
  if (attribute.default !== undefined && attribute.default !== null) {
    const problem = defaultProblem(String(type), attribute);
    if (problem) fail(`"default" ${problem}, got ${JSON.stringify(attribute.default)}`);
  }
}

/** Why a default value cannot be stored in its attribute (a bad default would fail every create). */
function defaultProblem(type: string, attribute: RawObject): string | undefined {
  const value = attribute.default;
  if (NUMERIC_TYPES.has(type)) {
    const fits = typeof value === 'number' ? Number.isFinite(value) : type !== 'integer' && type !== 'float' && isFiniteNumberLike(value);
    return fits && (type !== 'integer' || Number.isInteger(Number(value))) ? undefined : `must be ${type === 'integer' ? 'an integer' : 'a number'}`;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (type === 'enumeration') return Array.isArray(attribute.enum) && attribute.enum.includes(value) ? undefined : 'must be one of the "enum" values';
  if (LENGTH_TYPES.has(type) || ['date', 'time', 'datetime', 'timestamp'].includes(type)) return typeof value === 'string' ? undefined : 'must be a string';
  return undefined;
}

/**
 * A relation Tessera changed at boot where Strapi boots with a warning: a plugin type's relation left out or made
 * one-sided (Strapi boots it half-working), or one of two sides that both say `inversedBy` read as `mappedBy`.
 */
export interface ModelRepair {
  uid: string;
  attribute: string;
  message: string;
}

/** Cross-model checks: names unique, relation targets and inverse sides exist. */
export function validateModel(contentTypes: ContentType[], components: Component[]): ModelRepair[] {
  const repairs: ModelRepair[] = [];
  const order = new Map([...contentTypes, ...components].map((item, index) => [item.uid, index]));
  const byUid = new Map(contentTypes.map((type) => [type.uid, type]));
  const componentUids = new Set(components.map((component) => component.uid));
  const seen = { pluralName: new Map<string, string>(), singularName: new Map<string, string>(), collectionName: new Map<string, string>() };
  for (const type of contentTypes) {
    // Admin types (`admin::user`, `admin::permission`) have no REST routes and share names with plugin types, as in
    // Strapi (users-permissions' `user` and `permission`); their tables must still be their own (below).
    if (type.namespace === 'admin') continue;
    for (const key of ['pluralName', 'singularName'] as const) {
      const previous = seen[key].get(type.info[key]);
      if (previous) throw new ConfigurationError(`info.${key} "${type.info[key]}" is already used by ${previous}`, type.source);
      seen[key].set(type.info[key], type.uid);
    }
    // Only API types have REST routes, where equal names would collide (Strapi loads plugin types that have them).
    if (type.namespace === 'api' && type.info.singularName === type.info.pluralName) {
      throw new ConfigurationError('"info.singularName" and "info.pluralName" must differ', type.source);
    }
    // A plural of one type may not be the singular of another: the REST paths would collide.
    const clash = seen.singularName.get(type.info.pluralName);
    if (clash && clash !== type.uid) throw new ConfigurationError(`info.pluralName "${type.info.pluralName}" is the singularName of ${clash}`, type.source);
  }
  for (const item of [...contentTypes, ...components]) {
    const previous = seen.collectionName.get(item.collectionName);
    if (previous) throw new ConfigurationError(`collectionName "${item.collectionName}" is already used by ${previous}`, item.source);
    seen.collectionName.set(item.collectionName, item.uid);
  }
  for (const item of [...contentTypes, ...components]) {
    for (const [name, attribute] of Object.entries(item.attributes)) checkLinks(item, name, attribute, { byUid, componentUids, order }, repairs);
  }
  return repairs;
}

function checkLinks(
  owner: ContentType | Component,
  name: string,
  attribute: Attribute,
  { byUid, componentUids, order }: { byUid: Map<string, ContentType>; componentUids: Set<string>; order: ReadonlyMap<string, number> },
  repairs: ModelRepair[],
): void {
  const fail = (message: string): never => {
    throw new ConfigurationError(`attribute "${name}": ${message}`, owner.source);
  };
  const unknownComponent = (uid: string) => fail(`unknown component "${uid}"${suggest(uid, componentUids)}`);
  if (attribute.type === 'component' && !componentUids.has(attribute.component)) unknownComponent(attribute.component);
  if (attribute.type === 'dynamiczone') {
    for (const uid of attribute.components) if (!componentUids.has(uid)) unknownComponent(uid);
  }
  if (attribute.type !== 'relation' || attribute.relation.startsWith('morph')) return;
  // Admin types hold credentials (API tokens and their permissions): no app type may reach them.
  if (isAppOwned(owner) && attribute.target?.startsWith('admin::')) fail(`relation to "${attribute.target}": app content types and components cannot link to admin types`);
  const target = byUid.get(attribute.target ?? '');
  // Plugins link their types to Strapi's admin users (`admin::user`: who wrote a note, a trail); Tessera has no admin
  // panel and so no such type. As the API could never fill or show such a link, the plugin's type boots without it.
  if (!target && !isAppOwned(owner) && attribute.target?.startsWith('admin::')) {
    delete owner.attributes[name];
    repairs.push({ uid: owner.uid, attribute: name, message: `attribute "${name}": relation to "${attribute.target}", an admin panel type Tessera does not have; left out` });
    return;
  }
  if (!target) fail(`relation to unknown target "${attribute.target}"${suggest(attribute.target ?? '', byUid.keys())}`);
  const inverseName = attribute.inversedBy ?? attribute.mappedBy;
  if (!inverseName) return;
  const inverse = target!.attributes[inverseName];
  if (!inverse || inverse.type !== 'relation') {
    const problem = `${attribute.inversedBy ? 'inversedBy' : 'mappedBy'} "${inverseName}" is not a relation of ${target!.uid}`;
    // An app's own schema is the developer's to fix; a plugin type (or an app's extension of one, as FoodAdvisor's
    // user has) boots on Strapi half-working, so it boots here with the relation made safe, and a warning.
    if (isAppOwned(owner)) fail(problem);
    repairs.push({ uid: owner.uid, attribute: name, message: repairRelation(owner, name, attribute, problem) });
    return;
  }
  const back = inverse as Extract<Attribute, { type: 'relation' }>;
  if (back.target !== owner.uid) fail(`"${inverseName}" of ${target!.uid} points to ${back.target}, not back to ${owner.uid}`);
  if (attribute.inversedBy && back.inversedBy === name) {
    const message = settleTwoOwners(owner, name, attribute, target!, inverseName, order);
    if (message) repairs.push({ uid: owner.uid, attribute: name, message });
    return;
  }
  const pointsBack = attribute.inversedBy ? back.mappedBy === name : back.inversedBy === name;
  const sibling = attribute.inversedBy && !pointsBack ? sharedInverse(owner, name, target!, inverseName, back) : undefined;
  if (sibling) {
    repairs.push({ uid: owner.uid, attribute: name, message: sibling });
    return;
  }
  if (!pointsBack) fail(`"${inverseName}" of ${target!.uid} must be ${attribute.inversedBy ? 'mappedBy' : 'inversedBy'} "${name}"`);
}

/**
 * Two attributes of one model both `inversedBy` the same field, whose `mappedBy` names one of them (a comment's
 * `user` and `authorId`, the user's `comments` mappedBy `authorId`). Strapi 4.26.2 boots it: each owner gets its own
 * join table (with the inverse order column a bidirectional side has), and the inverse field reads the one its
 * `mappedBy` names. Tessera lays the tables out the same way; the warning says what each relation does.
 */
function sharedInverse(
  owner: ContentType | Component,
  name: string,
  target: ContentType,
  inverseName: string,
  back: Extract<Attribute, { type: 'relation' }>,
): string | undefined {
  const paired = back.mappedBy ? owner.attributes[back.mappedBy] : undefined;
  if (!paired || paired.type !== 'relation' || paired.target !== target.uid || paired.inversedBy !== inverseName) return undefined;
  return (
    `attributes "${name}" and "${back.mappedBy}" are both inversedBy "${inverseName}" of ${target.uid}, which is mappedBy "${back.mappedBy}": ` +
    `"${name}" keeps its own join table and is read and written from ${owner.uid} only; "${inverseName}" lists what "${back.mappedBy}" links. ` +
    `Make "${name}" one-way (remove its inversedBy) or give it its own inverse field`
  );
}

/**
 * The safe half of a broken bidirectional relation: an owner side (`inversedBy`) keeps its join table as a one-way
 * relation; an inverse side (`mappedBy`) has no join table of its own and no owner to borrow one from, so it goes.
 */
function repairRelation(owner: ContentType | Component, name: string, attribute: Extract<Attribute, { type: 'relation' }>, problem: string): string {
  if (attribute.inversedBy) {
    delete attribute.inversedBy;
    return `attribute "${name}": ${problem}; kept as a one-way relation`;
  }
  delete owner.attributes[name];
  return `attribute "${name}": ${problem}; left out (it has no join table to read)`;
}

/** `: did you mean "api::article.article"?` when a known name is one typo away. */
function suggest(name: string, known: Iterable<string>): string {
  const nearest = closest(name, known);
  return nearest === undefined ? '' : ` (did you mean "${nearest}"?)`;
}

/** The app's own content types (`api::`) and components, as opposed to the kernel's and plugins' types. */
function isAppOwned(owner: ContentType | Component): boolean {
  return !('namespace' in owner) || owner.namespace === 'api';
}

function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumberLike(value: unknown): boolean {
  return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
}

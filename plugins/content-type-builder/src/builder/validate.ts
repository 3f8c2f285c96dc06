/**
 * The content type body of `POST` / `PUT /content-type-builder/content-types`, checked as Strapi 4.26.2's yup
 * schema checks it (`createContentTypeSchema`), with its messages and paths, so the panel shows the same errors.
 * Strapi answers them as `{ error: { name: 'ValidationError', details: { errors }, message } }` with status 400.
 * Tessera adds one budget Strapi does not have: at most MAX_ATTRIBUTES attributes per type.
 */
import type { App } from '@tessera/core';
import type { ContentTypeInput } from './content-types';
import { COLLECTION_NAME_REGEX, CONTENT_TYPE_TYPES, FORBIDDEN_ATTRIBUTES, KEBAB_CASE, NAME_REGEX, RELATIONS_BY_KIND, RESERVED_NAMES, snakeCase } from './names';

export const MAX_ATTRIBUTES = 500;

export interface YupError {
  path: string[];
  message: string;
  name: 'ValidationError';
}

export type Checked = { ok: true; contentType: ContentTypeInput } | { ok: false; body: unknown };

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** yup's `printValue` for the values a JSON body holds. */
const printValue = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));
const typeError = (path: string, type: string, value: unknown): string => `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

/** Strapi's answer for yup errors: the one message, or how many. */
export function validationBody(errors: YupError[]): unknown {
  const message = errors.length === 1 ? errors[0].message : `${errors.length} errors occurred`;
  return { error: { name: 'ValidationError', details: { errors }, message } };
}

class Collector {
  readonly errors: YupError[] = [];
  add(path: string[], message: string): void {
    this.errors.push({ path, message, name: 'ValidationError' });
  }
}

/** Names (singular, plural) already taken by a registered type, and its collection names (compared in snake case). */
function takenNames(app: App): { names: Set<string>; collections: Set<string> } {
  const types = app.contentTypes.values().filter((type) => type.bareTable !== true);
  return {
    names: new Set(types.flatMap((type) => [type.info.singularName, type.info.pluralName]).filter((name): name is string => typeof name === 'string').map(snakeCase)),
    collections: new Set(types.map((type) => snakeCase(type.collectionName))),
  };
}

/** The targets a relation may name: collection types (not Strapi's own, but the admin user), or the new type. */
function relationTargets(app: App): string[] {
  const uids = app.contentTypes.values().filter((type) => type.bareTable !== true && type.kind === 'collectionType' && (!type.uid.startsWith('strapi::') || type.uid === 'admin::user'));
  return [...uids.map((type) => type.uid), '__self__', '__contentType__'];
}

function checkBoolean(errors: Collector, path: string[], value: unknown): void {
  if (value !== undefined && value !== null && typeof value !== 'boolean') errors.add(path, typeError(path.join('.'), 'boolean', value));
}

function checkRelation(app: App, errors: Collector, path: string[], attribute: Obj, kind: string): void {
  const at = path.join('.');
  const allowed = Object.hasOwn(RELATIONS_BY_KIND, kind) ? RELATIONS_BY_KIND[kind] : [];
  if (attribute.relation === undefined) errors.add([...path, 'relation'], `${at}.relation is a required field`);
  else if (attribute.target === 'admin::user' && (!['oneToOne', 'oneToMany'].includes(String(attribute.relation)) || attribute.targetAttribute !== undefined)) {
    errors.add([...path, 'relation'], 'must be one of the following values: oneToOne, oneToMany');
  } else if (!allowed.includes(String(attribute.relation))) errors.add([...path, 'relation'], `must be one of the following values: ${allowed.join(', ')}`);
  for (const key of ['configurable', 'private']) checkBoolean(errors, [...path, key], attribute[key]);
  if (String(attribute.relation).startsWith('morphTo')) return;
  const targets = relationTargets(app);
  if (attribute.target === undefined) errors.add([...path, 'target'], `${at}.target is a required field`);
  else if (typeof attribute.target !== 'string' || !targets.includes(attribute.target)) errors.add([...path, 'target'], `${at}.target must be one of the following values: ${targets.join(', ')}`);
  const other = attribute.targetAttribute;
  if (other !== undefined && other !== null && (typeof other !== 'string' || (other !== '' && !NAME_REGEX.test(other)))) {
    errors.add([...path, 'targetAttribute'], `${at}.targetAttribute must match the following regex: ${NAME_REGEX}`);
  }
}

function checkAttributes(app: App, errors: Collector, attributes: unknown, kind: string): void {
  const path = ['contentType', 'attributes'];
  if (attributes === undefined || attributes === null) return errors.add(path, 'attributes.required');
  if (!isObject(attributes)) return errors.add(path, typeError('contentType.attributes', 'object', attributes));
  const keys = Object.keys(attributes);
  if (keys.length > MAX_ATTRIBUTES) return errors.add(path, `contentType.attributes must have at most ${MAX_ATTRIBUTES} attributes`);
  const snake = keys.map(snakeCase);
  const later: Array<() => void> = [];
  for (const [index, key] of keys.entries()) {
    const attribute = attributes[key];
    const at = [...path, key];
    const name = at.join('.');
    if (FORBIDDEN_ATTRIBUTES.some((reserved) => snakeCase(reserved) === snake[index])) {
      later.push(() => errors.add(at, `Attribute keys cannot be one of ${FORBIDDEN_ATTRIBUTES.join(', ')}`));
      continue;
    }
    if (snake.some((other, position) => position !== index && other === snake[index])) {
      later.push(() => errors.add(at, `Attribute ${key} conflicts with an existing key`));
      continue;
    }
    if (!isObject(attribute) || attribute.type === undefined) {
      later.push(() => errors.add(at, 'Attribute must have either a type or a target'));
      continue;
    }
    if (!NAME_REGEX.test(key)) later.push(() => errors.add(at, `Attribute name '${key}' must match the following regex: ${NAME_REGEX}`));
    if (attribute.type === 'relation') {
      later.push(() => checkRelation(app, errors, at, attribute, kind));
      continue;
    }
    if (typeof attribute.type !== 'string' || !CONTENT_TYPE_TYPES.includes(attribute.type)) {
      errors.add([...at, 'type'], `${name}.type must be one of the following values: ${CONTENT_TYPE_TYPES.join(', ')}`);
    }
    for (const option of ['required', 'unique', 'private', 'configurable']) later.push(() => checkBoolean(errors, [...at, option], attribute[option]));
    if (attribute.pluginOptions !== undefined && !isObject(attribute.pluginOptions)) later.push(() => errors.add([...at, 'pluginOptions'], typeError(`${name}.pluginOptions`, 'object', attribute.pluginOptions)));
  }
  for (const check of later) check();
}

function checkName(errors: Collector, field: 'displayName' | 'singularName' | 'pluralName', value: unknown, tests: Array<[boolean, string]>): void {
  const path = ['contentType', field];
  const at = path.join('.');
  if (value !== undefined && value !== null && typeof value !== 'string') return errors.add(path, typeError(at, 'string', value));
  if (value === '') errors.add(path, `${at} must be at least 1 characters`);
  if (typeof value === 'string' && value !== '') {
    for (const [failed, message] of tests) if (failed) errors.add(path, message.replace('${value}', value));
  }
  if (value === undefined || value === null || value === '') errors.add(path, `${at} is a required field`);
}

/** Checks a create (`isEdition` false) or update body; answers the content type to write, or Strapi's 400 body. */
export function checkContentTypeBody(app: App, body: unknown, isEdition: boolean): Checked {
  // Strapi's validator fails with a TypeError (answered as `{}`) when there is no content type object to read.
  if (!isObject(body) || !isObject(body.contentType)) return { ok: false, body: { error: {} } };
  const input = body.contentType;
  const errors = new Collector();
  const kind = input.kind === undefined || input.kind === null ? 'collectionType' : String(input.kind);
  const collectionName = input.collectionName;
  if (collectionName !== undefined && collectionName !== null && (typeof collectionName !== 'string' || (collectionName !== '' && !COLLECTION_NAME_REGEX.test(collectionName)))) {
    errors.add(['contentType', 'collectionName'], `contentType.collectionName must match the following regex: ${COLLECTION_NAME_REGEX}`);
  }
  checkAttributes(app, errors, input.attributes, kind);
  if (input.kind !== undefined && input.kind !== null && !Object.hasOwn(RELATIONS_BY_KIND, String(input.kind))) errors.add(['contentType', 'kind'], 'contentType.kind must be one of the following values: singleType, collectionType');
  for (const key of ['description'] as const) if (input[key] !== undefined && typeof input[key] !== 'string') errors.add(['contentType', key], typeError(`contentType.${key}`, 'string', input[key]));
  checkBoolean(errors, ['contentType', 'draftAndPublish'], input.draftAndPublish);
  for (const key of ['options', 'pluginOptions'] as const) if (input[key] !== undefined && !isObject(input[key])) errors.add(['contentType', key], typeError(`contentType.${key}`, 'object', input[key]));
  const taken = takenNames(app);
  const used = (value: string) => !isEdition && taken.names.has(snakeCase(value));
  const reserved = (value: string) => RESERVED_NAMES.models.some((name) => snakeCase(name) === snakeCase(value));
  const inUse = 'contentType: name `${value}` is already being used by another content type.';
  const forbidden = `Content Type name cannot be one of ${RESERVED_NAMES.models.join(', ')}`;
  const kebab = (field: string) => `contentType.${field} is not in kebab case (an-example-of-kebab-case)`;
  checkName(errors, 'displayName', input.displayName, []);
  const singular = String(input.singularName);
  checkName(errors, 'singularName', input.singularName, [[used(singular), inUse], [reserved(singular), forbidden], [!KEBAB_CASE.test(singular), kebab('singularName')]]);
  const plural = String(input.pluralName);
  const collectionUsed = !isEdition && taken.collections.has(snakeCase(plural));
  checkName(errors, 'pluralName', input.pluralName, [[used(plural), inUse], [collectionUsed, inUse], [reserved(plural), forbidden], [!KEBAB_CASE.test(plural), kebab('pluralName')]]);
  if (input.singularName === input.pluralName) errors.add(['contentType'], 'contentType: singularName and pluralName should be different');
  if (body.components !== undefined && !Array.isArray(body.components)) errors.add(['components'], typeError('components', 'array', body.components));
  const unknown = Object.keys(body).filter((key) => key !== 'contentType' && key !== 'components');
  if (unknown.length > 0) errors.add([], `this field has unspecified keys: ${unknown.join(', ')}`);
  if (errors.errors.length > 0) return { ok: false, body: validationBody(errors.errors) };
  return { ok: true, contentType: toInput(input) };
}

/** The checked body as the builder takes it (only what Strapi's builder reads). */
function toInput(input: Obj): ContentTypeInput {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const attributes = isObject(input.attributes) ? input.attributes : {};
  return {
    displayName: String(input.displayName),
    singularName: String(input.singularName),
    pluralName: String(input.pluralName),
    kind: text(input.kind),
    description: text(input.description),
    draftAndPublish: typeof input.draftAndPublish === 'boolean' ? input.draftAndPublish : undefined,
    collectionName: text(input.collectionName),
    options: isObject(input.options) ? input.options : undefined,
    pluginOptions: isObject(input.pluginOptions) ? input.pluginOptions : undefined,
    config: input.config,
    attributes: Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, Obj] => isObject(entry[1]))),
  };
}

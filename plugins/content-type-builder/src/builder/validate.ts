/**
 * The content type body of `POST` / `PUT /content-type-builder/content-types`, checked as Strapi 4.26.2's yup
 * schema checks it (`createContentTypeSchema`), with its messages and paths, so the panel shows the same errors.
 * Strapi answers them as `{ error: { name: 'ValidationError', details: { errors }, message } }` with status 400.
 * Tessera adds one budget Strapi does not have: at most MAX_ATTRIBUTES attributes per type.
 */
import type { App } from '@tessera/core';
import type { ContentTypeInput } from './content-types';
import { checkAttributes, checkBoolean, Collector, isObject, typeError, validationBody, type Obj } from './attribute-checks';
import { COLLECTION_NAME_REGEX, CONTENT_TYPE_TYPES, KEBAB_CASE, RELATIONS_BY_KIND, RESERVED_NAMES, snakeCase } from './names';

export type Checked = { ok: true; contentType: ContentTypeInput } | { ok: false; body: unknown };

function takenNames(app: App): { names: Set<string>; collections: Set<string> } {
  const types = app.contentTypes.values().filter((type) => type.bareTable !== true);
  return {
    names: new Set(types.flatMap((type) => [type.info.singularName, type.info.pluralName]).filter((name): name is string => typeof name === 'string').map(snakeCase)),
    collections: new Set(types.map((type) => snakeCase(type.collectionName))),
  };
}

/** The targets a relation may name: collection types (not Strapi's own, but the admin user), or the new type. */
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
  checkAttributes(app, errors, ['contentType'], input.attributes, CONTENT_TYPE_TYPES, Object.hasOwn(RELATIONS_BY_KIND, kind) ? RELATIONS_BY_KIND[kind] : []);
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

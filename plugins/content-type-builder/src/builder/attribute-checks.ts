/**
 * The attribute checks Strapi 4.26.2's builder makes with yup (`createAttributesValidator`), shared by content types
 * and components, with its messages and paths, and how it answers them: `{ error: { name: 'ValidationError',
 * details: { errors }, message } }` with status 400. Tessera adds one budget Strapi does not have: at most
 * MAX_ATTRIBUTES attributes per schema.
 */
import type { App } from '@tessera/core';
import { FORBIDDEN_ATTRIBUTES, NAME_REGEX, snakeCase } from './names';

export const MAX_ATTRIBUTES = 500;

export interface YupError {
  path: string[];
  message: string;
  name: 'ValidationError';
}

export type Obj = Record<string, unknown>;
export const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** yup's `printValue` for the values a JSON body holds. */
export const printValue = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));
/** A path as yup names it in its messages: `components[0].attributes.title`. */
export const yupPath = (path: readonly string[]): string => path.map((segment, index) => (index > 0 && /^\d+$/.test(segment) ? `[${segment}]` : index > 0 ? `.${segment}` : segment)).join('');
export const typeError = (path: string, type: string, value: unknown): string => `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

/** Strapi's answer for yup errors: the one message, or how many. */
export function validationBody(errors: YupError[]): unknown {
  const message = errors.length === 1 ? errors[0].message : `${errors.length} errors occurred`;
  return { error: { name: 'ValidationError', details: { errors }, message } };
}

export class Collector {
  readonly errors: YupError[] = [];
  add(path: string[], message: string): void {
    this.errors.push({ path, message, name: 'ValidationError' });
  }
}

/** Names (singular, plural) already taken by a registered type, and its collection names (compared in snake case). */
function relationTargets(app: App): string[] {
  const uids = app.contentTypes.values().filter((type) => type.bareTable !== true && type.kind === 'collectionType' && (!type.uid.startsWith('strapi::') || type.uid === 'admin::user'));
  return [...uids.map((type) => type.uid), '__self__', '__contentType__'];
}

export function checkBoolean(errors: Collector, path: string[], value: unknown): void {
  if (value !== undefined && value !== null && typeof value !== 'boolean') errors.add(path, typeError(yupPath(path), 'boolean', value));
}

function checkRelation(app: App, errors: Collector, path: string[], attribute: Obj, allowed: readonly string[]): void {
  const at = yupPath(path);
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

/**
 * A schema's attributes under `root` (`['contentType']`, `['component']`, `['components', '0']`): the `types` and
 * `relations` it may declare.
 */
export function checkAttributes(app: App, errors: Collector, root: readonly string[], attributes: unknown, types: readonly string[], relations: readonly string[]): void {
  const path = [...root, 'attributes'];
  if (attributes === undefined || attributes === null) return errors.add(path, 'attributes.required');
  if (!isObject(attributes)) return errors.add(path, typeError(yupPath(path), 'object', attributes));
  const keys = Object.keys(attributes);
  if (keys.length > MAX_ATTRIBUTES) return errors.add(path, `${yupPath(path)} must have at most ${MAX_ATTRIBUTES} attributes`);
  const snake = keys.map(snakeCase);
  const later: Array<() => void> = [];
  for (const [index, key] of keys.entries()) {
    const attribute = attributes[key];
    const at = [...path, key];
    const name = yupPath(at);
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
      later.push(() => checkRelation(app, errors, at, attribute, relations));
      continue;
    }
    if (typeof attribute.type !== 'string' || !types.includes(attribute.type)) {
      errors.add([...at, 'type'], `${name}.type must be one of the following values: ${types.join(', ')}`);
    }
    for (const option of ['required', 'unique', 'private', 'configurable']) later.push(() => checkBoolean(errors, [...at, option], attribute[option]));
    if (attribute.pluginOptions !== undefined && !isObject(attribute.pluginOptions)) later.push(() => errors.add([...at, 'pluginOptions'], typeError(`${name}.pluginOptions`, 'object', attribute.pluginOptions)));
  }
  for (const check of later) check();
}

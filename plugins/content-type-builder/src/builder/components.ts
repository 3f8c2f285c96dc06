/**
 * Creating and deleting an app component as Strapi 4.26.2's content-type builder does (its `createComponent` /
 * `deleteComponent` and schema builder): the body checked as its yup `componentInputSchema`, the new
 * `src/components/<category>/<name>.json`, and on delete the file and every attribute that uses the component
 * (a component field removed, a dynamic zone's list trimmed). Editing components and categories: component-edits.ts.
 */
import path from 'node:path';
import type { App } from '@tessera/core';
import { checkAttributes, Collector, isObject, typeError, validationBody, yupPath, type Obj } from './attribute-checks';
import type { SchemaFile } from './files';
import { CATEGORY_NAME_REGEX, COMPONENT_RELATIONS, COMPONENT_TYPES, ICON_REGEX, pluralize, slugify } from './names';
import { convertAttribute } from './relations';
import { BuilderError, commit, type Workspace } from './workspace';

export interface ComponentInput {
  displayName: string;
  category: string;
  icon?: string;
  description?: string;
  pluginOptions?: Record<string, unknown>;
  config?: unknown;
  attributes: Record<string, Obj>;
}

export type CheckedComponent = { ok: true; component: ComponentInput } | { ok: false; body: unknown };

/** A name test of Strapi's: the empty string passes, anything else must match. */
function checkPattern(errors: Collector, path: string[], value: unknown, pattern: RegExp, message: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') return errors.add(path, typeError(yupPath(path), 'string', value));
  if (value !== '' && !pattern.test(value)) errors.add(path, message);
}

export function checkComponentBody(app: App, body: unknown): CheckedComponent {
  if (!isObject(body)) return { ok: false, body: validationBody([{ path: [], message: typeError('this', 'object', body), name: 'ValidationError' }]) };
  const errors = new Collector();
  const input = body.component;
  if (input === undefined || input === null) errors.add(['component'], 'component is a required field');
  else if (!isObject(input)) errors.add(['component'], typeError('component', 'object', input));
  else checkComponentFields(app, errors, ['component'], input);
  if (body.components !== undefined && !Array.isArray(body.components)) errors.add(['components'], typeError('components', 'array', body.components));
  const unknown = Object.keys(body).filter((key) => key !== 'component' && key !== 'components');
  if (unknown.length > 0) errors.add([], `this field has unspecified keys: ${unknown.join(', ')}`);
  if (errors.errors.length > 0 || !isObject(input)) return { ok: false, body: validationBody(errors.errors) };
  return { ok: true, component: componentInput(input) };
}

/** Strapi's yup `componentSchema` on a component body at `root` (`['component']`, or `['components', '0']` nested). */
export function checkComponentFields(app: App, errors: Collector, root: readonly string[], input: Obj): void {
  const at = (field: string) => [...root, field];
  const name = (field: string) => yupPath(at(field));
  checkAttributes(app, errors, root, input.attributes, COMPONENT_TYPES, COMPONENT_RELATIONS);
  checkPattern(errors, at('icon'), input.icon, ICON_REGEX, `${name('icon')} is not a valid icon name. Make sure your icon name starts with an alphanumeric character and only includes alphanumeric characters or dashes.`);
  const displayName = input.displayName;
  if (displayName !== undefined && displayName !== null && typeof displayName !== 'string') errors.add(at('displayName'), typeError(name('displayName'), 'string', displayName));
  if (displayName === '') errors.add(at('displayName'), `${name('displayName')} must be at least 1 characters`);
  if (displayName === undefined || displayName === null || displayName === '') errors.add(at('displayName'), 'displayName.required');
  checkPattern(errors, at('category'), input.category, CATEGORY_NAME_REGEX, `${name('category')} must match the following regex: ${CATEGORY_NAME_REGEX}`);
  if (input.category === undefined || input.category === null || input.category === '') errors.add(at('category'), 'category.required');
}

/** A checked component body as the builder uses it. */
export function componentInput(input: Obj): ComponentInput {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const attributes = isObject(input.attributes) ? input.attributes : {};
  return {
    displayName: String(input.displayName),
    category: String(input.category),
    icon: text(input.icon),
    description: text(input.description),
    pluginOptions: isObject(input.pluginOptions) ? input.pluginOptions : undefined,
    config: input.config,
    attributes: Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, Obj] => isObject(entry[1]))),
  };
}

/** Strapi's `createComponentUID`: `<category>.<name>`, both slugged. */
export const componentUid = (input: { category: string; displayName: string }): string => `${slugify(input.category, '-')}.${slugify(input.displayName, '-')}`;

/**
 * Strapi's `replaceTemporaryUIDs`: a component field naming a new component's `tmpUID` gets its uid; one naming
 * neither a new nor an existing component is refused; a dynamic zone is mapped when it names a new one.
 */
export function withComponentUids<T extends { attributes: Record<string, Obj> }>(app: App, schema: T, uids: Map<string, string>): T {
  const known = (uid: unknown) => typeof uid === 'string' && (uids.has(uid) || app.components.find(uid) !== undefined);
  const attributes: Record<string, Obj> = {};
  for (const [key, attribute] of Object.entries(schema.attributes)) {
    if (attribute.type === 'component') {
      if (!known(attribute.component)) throw new BuilderError('component.notFound');
      attributes[key] = { ...attribute, component: uids.get(String(attribute.component)) ?? attribute.component };
    } else if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components) && attribute.components.some((uid: unknown) => typeof uid === 'string' && uids.has(uid))) {
      if (!attribute.components.every(known)) throw new BuilderError('component.notFound');
      attributes[key] = { ...attribute, components: attribute.components.map((uid: unknown) => uids.get(String(uid)) ?? uid) };
    } else attributes[key] = attribute;
  }
  return { ...schema, attributes };
}

/** Adds a new component's file to a builder workspace (Strapi's schema builder `createComponent`). */
export function addComponent(app: App, workspace: Workspace, input: ComponentInput): string {
  const category = slugify(input.category, '-');
  const name = slugify(input.displayName, '-');
  const uid = componentUid(input);
  const collectionName = `components_${slugify(input.category, '_')}_${slugify(pluralize(input.displayName), '_')}`;
  if (app.components.find(uid) || workspace.has(uid) || app.components.values().some((component) => component.collectionName === collectionName)) throw new BuilderError('component.alreadyExists');
  const attributes = componentAttributes(app, workspace, input.attributes);
  // A new schema starts from Strapi's empty one, so `options: {}` is written.
  const schema: SchemaFile = {
    collectionName,
    info: { displayName: input.displayName, icon: input.icon, description: input.description },
    options: {},
    pluginOptions: input.pluginOptions,
    attributes,
    config: input.config,
  };
  workspace.add(uid, path.join(app.dirs.app.components, category, `${name}.json`), schema);
  return uid;
}

/** A component's attributes as written, each relation's target checked (a type of the app or of this save). */
export function componentAttributes(app: App, workspace: Workspace, given: Record<string, Obj>): Record<string, Obj> {
  const attributes: Record<string, Obj> = {};
  for (const [key, attribute] of Object.entries(given)) {
    const target = attribute.target;
    if (attribute.type === 'relation' && (typeof target !== 'string' || (!app.contentTypes.find(target) && !workspace.has(target)))) throw new BuilderError(`target: ${String(target)} does not exist`);
    attributes[key] = convertAttribute(attribute);
  }
  return attributes;
}

export function deleteComponent(app: App, uid: string): string {
  return commit(app, (workspace) => deleteComponentIn(workspace, uid));
}

/** A component's file deleted in a workspace, and every attribute using it: a component field removed, a zone trimmed. */
export function deleteComponentIn(workspace: Workspace, uid: string): string {
  replaceComponentUses(workspace, uid, null);
  workspace.delete(uid);
  return uid;
}

/**
 * Every component field and dynamic zone of the other schemas that names `uid`: renamed to `newUid` (a component
 * moved), or, with `null`, the field removed and the zone trimmed (a component deleted).
 */
export function replaceComponentUses(workspace: Workspace, uid: string, newUid: string | null): void {
  for (const other of workspace.allUids()) {
    if (other === uid) continue;
    for (const [key, attribute] of Object.entries(workspace.get(other).attributes)) {
      if (attribute.type === 'component' && attribute.component === uid) {
        if (newUid === null) workspace.deleteAttribute(other, key);
        else workspace.setAttribute(other, key, { ...attribute, component: newUid });
      }
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components) && attribute.components.includes(uid)) {
        const components = newUid === null ? attribute.components.filter((item: unknown) => item !== uid) : attribute.components.map((item: unknown) => (item === uid ? newUid : item));
        workspace.setAttribute(other, key, { ...attribute, components });
      }
    }
  }
}

/**
 * Creating and deleting an app component as Strapi 4.26.2's content-type builder does (its `createComponent` /
 * `deleteComponent` and schema builder): the body checked as its yup `componentInputSchema`, the new
 * `src/components/<category>/<name>.json`, and on delete the file and every attribute that uses the component
 * (a component field removed, a dynamic zone's list trimmed). Editing components and categories: component-edits.ts.
 */
import path from 'node:path';
import type { App } from '@tessera/core';
import { checkAttributes, Collector, isObject, typeError, validationBody, type Obj } from './attribute-checks';
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
function checkPattern(errors: Collector, field: string, value: unknown, pattern: RegExp, message: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') return errors.add(['component', field], typeError(`component.${field}`, 'string', value));
  if (value !== '' && !pattern.test(value)) errors.add(['component', field], message);
}

export function checkComponentBody(app: App, body: unknown): CheckedComponent {
  if (!isObject(body)) return { ok: false, body: validationBody([{ path: [], message: typeError('this', 'object', body), name: 'ValidationError' }]) };
  const errors = new Collector();
  const input = body.component;
  if (input === undefined || input === null) errors.add(['component'], 'component is a required field');
  else if (!isObject(input)) errors.add(['component'], typeError('component', 'object', input));
  else {
    checkAttributes(app, errors, 'component', input.attributes, COMPONENT_TYPES, COMPONENT_RELATIONS);
    checkPattern(errors, 'icon', input.icon, ICON_REGEX, 'component.icon is not a valid icon name. Make sure your icon name starts with an alphanumeric character and only includes alphanumeric characters or dashes.');
    const name = input.displayName;
    if (name !== undefined && name !== null && typeof name !== 'string') errors.add(['component', 'displayName'], typeError('component.displayName', 'string', name));
    if (name === '') errors.add(['component', 'displayName'], 'component.displayName must be at least 1 characters');
    if (name === undefined || name === null || name === '') errors.add(['component', 'displayName'], 'displayName.required');
    checkPattern(errors, 'category', input.category, CATEGORY_NAME_REGEX, `component.category must match the following regex: ${CATEGORY_NAME_REGEX}`);
    if (input.category === undefined || input.category === null || input.category === '') errors.add(['component', 'category'], 'category.required');
  }
  if (body.components !== undefined && !Array.isArray(body.components)) errors.add(['components'], typeError('components', 'array', body.components));
  const unknown = Object.keys(body).filter((key) => key !== 'component' && key !== 'components');
  if (unknown.length > 0) errors.add([], `this field has unspecified keys: ${unknown.join(', ')}`);
  if (errors.errors.length > 0 || !isObject(input)) return { ok: false, body: validationBody(errors.errors) };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const attributes = isObject(input.attributes) ? input.attributes : {};
  return {
    ok: true,
    component: {
      displayName: String(input.displayName),
      category: String(input.category),
      icon: text(input.icon),
      description: text(input.description),
      pluginOptions: isObject(input.pluginOptions) ? input.pluginOptions : undefined,
      config: input.config,
      attributes: Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, Obj] => isObject(entry[1]))),
    },
  };
}

/** Strapi's `createComponentUID`: `<category>.<name>`, both slugged. */
export const componentUid = (input: { category: string; displayName: string }): string => `${slugify(input.category, '-')}.${slugify(input.displayName, '-')}`;

/** A component sent along with a type or another component (the panel's "create a new component" in a field). */
export type NewComponent = ComponentInput & { tmpUID: string };

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

export function createComponent(app: App, input: ComponentInput): string {
  return commit(app, (workspace) => addComponent(app, workspace, input));
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

export type CheckedNewComponents = { ok: true; components: NewComponent[] } | { ok: false; body: unknown };

/**
 * The new components sent along with a type (`components: [{ tmpUID, category, displayName, … }]`), each checked
 * as a component body. One naming an existing `uid` (an edit in the same save) is refused: `editsRefused`.
 */
export function checkNewComponents(app: App, components: unknown, editsRefused: string): CheckedNewComponents {
  if (!Array.isArray(components)) return { ok: true, components: [] };
  const checked: NewComponent[] = [];
  for (const item of components) {
    if (!isObject(item) || item.uid !== undefined || typeof item.tmpUID !== 'string') return { ok: false, body: { error: editsRefused } };
    const { tmpUID, ...component } = item;
    const result = checkComponentBody(app, { component });
    if (!result.ok) return result;
    checked.push({ ...result.component, tmpUID });
  }
  return { ok: true, components: checked };
}

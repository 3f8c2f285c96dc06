/**
 * Creating and deleting an app component as Strapi 4.26.2's content-type builder does (its `createComponent` /
 * `deleteComponent` and schema builder): the body checked as its yup `componentInputSchema`, the new
 * `src/components/<category>/<name>.json`, and on delete the file and every attribute that uses the component
 * (a component field removed, a dynamic zone's list trimmed). Editing components and categories is not done here.
 */
import path from 'node:path';
import type { App } from '@tessera/core';
import { checkAttributes, Collector, isObject, typeError, validationBody, type Obj } from './attribute-checks';
import type { SchemaFile } from './files';
import { CATEGORY_NAME_REGEX, COMPONENT_RELATIONS, COMPONENT_TYPES, ICON_REGEX, pluralize, slugify } from './names';
import { convertAttribute } from './relations';
import { commit } from './content-types';
import { BuilderError } from './workspace';

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

export function createComponent(app: App, input: ComponentInput): string {
  const category = slugify(input.category, '-');
  const name = slugify(input.displayName, '-');
  const uid = `${category}.${name}`;
  const collectionName = `components_${slugify(input.category, '_')}_${slugify(pluralize(input.displayName), '_')}`;
  if (app.components.find(uid) || app.components.values().some((component) => component.collectionName === collectionName)) throw new BuilderError('component.alreadyExists');
  return commit(app, (workspace) => {
    const attributes: Record<string, Obj> = {};
    for (const [key, attribute] of Object.entries(input.attributes)) {
      if (attribute.type === 'relation' && (typeof attribute.target !== 'string' || !app.contentTypes.find(attribute.target))) throw new BuilderError(`target: ${String(attribute.target)} does not exist`);
      attributes[key] = convertAttribute(attribute);
    }
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
  });
}

export function deleteComponent(app: App, uid: string): string {
  return commit(app, (workspace) => {
    for (const other of workspace.allUids()) {
      if (other === uid) continue;
      for (const [key, attribute] of Object.entries(workspace.get(other).attributes)) {
        if (attribute.type === 'component' && attribute.component === uid) workspace.deleteAttribute(other, key);
        if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components) && attribute.components.includes(uid)) {
          workspace.setAttribute(other, key, { ...attribute, components: attribute.components.filter((item: unknown) => item !== uid) });
        }
      }
    }
    workspace.delete(uid);
    return uid;
  });
}

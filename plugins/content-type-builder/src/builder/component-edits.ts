/**
 * Editing app components and their categories as Strapi 4.26.2's content-type builder does (its schema builder's
 * `editComponent` and the `component-categories` service): a component's info and configurable attributes
 * replaced (its non-configurable ones kept), and a new category moves its file to `src/components/<category>/`
 * under a new uid that every component field and dynamic zone naming the old one follows; a category renamed moves
 * each of its components so; a category deleted deletes each of its components as a component delete does. As on
 * Strapi, a component keeps its table when its uid changes, and rows already written under the old uid stay.
 */
import path from 'node:path';
import type { App } from '@tessera/core';
import { Collector, isObject, typeError, validationBody, type Obj } from './attribute-checks';
import { componentAttributes, deleteComponentIn, replaceComponentUses, type ComponentInput } from './components';
import type { SchemaFile } from './files';
import { CATEGORY_NAME_REGEX, slugify } from './names';
import { isConfigurable } from './relations';
import { BuilderError, commit, type Workspace } from './workspace';

/** Strapi's schema builder `editComponent` in a workspace (a component's own save, or one edited in another's). */
export function editComponentIn(app: App, workspace: Workspace, uid: string, input: ComponentInput): string {
  if (!app.components.find(uid) || !workspace.has(uid)) throw new BuilderError('component.notFound');
  const schema = workspace.get(uid);
  const newUid = `${slugify(input.category, '-')}.${uid.split('.')[1]}`;
  if (newUid !== uid && (app.components.find(newUid) || workspace.has(newUid))) throw new BuilderError('component.edit.alreadyExists');
  const old = schema.attributes as Record<string, Obj>;
  // Non-configurable attributes are kept as they are, whatever the body says of them.
  const kept = Object.fromEntries(Object.entries(old).filter(([, attribute]) => !isConfigurable(attribute)));
  const given = Object.fromEntries(Object.entries(input.attributes).filter(([key]) => !(key in kept)));
  const attributes = { ...kept, ...componentAttributes(app, workspace, given) };
  // As Strapi's schema builder sets them: a value the body leaves out keeps the file's (an empty description stays).
  const info: Record<string, unknown> = { ...(schema.info ?? {}) };
  for (const key of ['displayName', 'icon', 'description'] as const) if (input[key] !== undefined) info[key] = input[key];
  const next: SchemaFile = { ...schema, info, pluginOptions: input.pluginOptions ?? schema.pluginOptions, attributes };
  workspace.replace(uid, next);
  if (newUid !== uid) moveComponent(app, workspace, uid, newUid);
  return newUid;
}

/** Strapi's `editCategory`: each component of the category moved to the new one; `undefined` when the name is the same. */
export function editCategory(app: App, name: string, newName: string): string | undefined {
  const category = slugify(newName, '-');
  if (category === name) return undefined;
  if (!categoryExists(app, name)) throw new BuilderError('category not found');
  if (categoryExists(app, category)) throw new BuilderError('Name already taken');
  return commit(app, (workspace) => {
    for (const component of app.components.values()) {
      if (component.category === name) moveComponent(app, workspace, component.uid, `${category}.${component.uid.split('.')[1]}`);
    }
    return category;
  });
}

/** Strapi's `deleteCategory`: each component of the category deleted, with every attribute using it. */
export function deleteCategory(app: App, name: string): string {
  if (!categoryExists(app, name)) throw new BuilderError('category not found');
  return commit(app, (workspace) => {
    for (const component of app.components.values()) if (component.category === name) deleteComponentIn(workspace, component.uid);
    return name;
  });
}

/** Strapi's `componentCategorySchema`: `{ name }`, at least 3 characters, a category name; nothing else. */
export function checkCategoryBody(body: unknown): { ok: true; name: string } | { ok: false; body: unknown } {
  if (!isObject(body)) return { ok: false, body: validationBody([{ path: [], message: typeError('this', 'object', body), name: 'ValidationError' }]) };
  const errors = new Collector();
  const { name } = body;
  if (name === undefined || name === null || name === '') errors.add(['name'], 'name.required');
  else if (typeof name !== 'string') errors.add(['name'], typeError('name', 'string', name));
  else {
    if (name.length < 3) errors.add(['name'], 'name must be at least 3 characters');
    if (!CATEGORY_NAME_REGEX.test(name)) errors.add(['name'], `name must match the following regex: ${CATEGORY_NAME_REGEX}`);
  }
  const unknown = Object.keys(body).filter((key) => key !== 'name');
  if (unknown.length > 0) errors.add([], `this field has unspecified keys: ${unknown.join(', ')}`);
  return errors.errors.length > 0 ? { ok: false, body: validationBody(errors.errors) } : { ok: true, name: String(name) };
}

function categoryExists(app: App, name: string): boolean {
  return app.components.values().some((component) => component.category === name);
}

/** The component's file moved to its new category's folder, and every field and dynamic zone naming it renamed. */
function moveComponent(app: App, workspace: Workspace, uid: string, newUid: string): void {
  const schema = workspace.get(uid);
  workspace.delete(uid);
  workspace.add(newUid, path.join(app.dirs.app.components, newUid.split('.')[0], `${newUid.split('.')[1]}.json`), schema);
  replaceComponentUses(workspace, uid, newUid);
}

/**
 * Creating, editing and deleting an app content type as Strapi 4.26.2's content-type builder does (its
 * `services/content-types` and schema builder): the new type's schema file and the API files its generator
 * writes, the relations' other sides in their targets' files, and on delete the type's files and every attribute
 * of other types pointing at it. All changes are made on disk together or not at all.
 */
import path from 'node:path';
import type { App } from '@tessera/core';
import { API_FOLDERS, apiFileText, apiLanguage, type SchemaFile } from './files';
import { convertAttribute, isConfigurable, otherSide, otherSideName, type RawAttribute } from './relations';
import { withComponentUids } from './components';
import { applyNestedComponents, nestedComponentUids, type NestedComponent } from './nested-components';
import { BuilderError, commit, type Workspace } from './workspace';

/** The panel's content type body (validated before: validate.ts). */
export interface ContentTypeInput {
  displayName: string;
  singularName: string;
  pluralName: string;
  kind?: string;
  description?: string;
  draftAndPublish?: boolean;
  collectionName?: string;
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  config?: unknown;
  attributes: Record<string, RawAttribute>;
}

const isRelation = (attribute: RawAttribute | undefined): boolean => attribute?.type === 'relation';

/** Strapi's `nameToCollectionName` for the kebab-case names it accepts: `blog-posts` → `blog_posts`. */
export const collectionNameOf = (pluralName: string): string => pluralName.replace(/-/g, '_');

/** Points the relation's target at it (Strapi's `setRelation`): only a relation naming its other side has one. */
function setOtherSide(workspace: Workspace, uid: string, key: string, attribute: RawAttribute): void {
  const target = String(attribute.target);
  const targetAttribute = attribute.targetAttribute;
  if (typeof targetAttribute !== 'string' || targetAttribute === '') return;
  const existing = workspace.get(target).attributes[targetAttribute];
  const side = otherSide(key, attribute, uid, existing);
  if (side) workspace.setAttribute(target, targetAttribute, side);
}

/** Removes the relation's other side from its target (Strapi's `unsetRelation`). */
function unsetOtherSide(workspace: Workspace, attribute: RawAttribute): void {
  const name = otherSideName(attribute);
  if (typeof attribute.target !== 'string' || !name || !workspace.has(attribute.target)) return;
  if (workspace.get(attribute.target).attributes[name]) workspace.deleteAttribute(attribute.target, name);
}

/** A target of `__self__` names the type being created. */
function withSelfTargets(attributes: Record<string, RawAttribute>, uid: string): Record<string, RawAttribute> {
  return Object.fromEntries(Object.entries(attributes).map(([key, attribute]) => [key, attribute.target === '__self__' ? { ...attribute, target: uid } : { ...attribute }]));
}

/** Strapi's `convertAttributes`: a relation's target must be a registered type (or the one being created). */
function convertAll(app: App, attributes: Record<string, RawAttribute>, uid: string): Record<string, RawAttribute> {
  const converted: Record<string, RawAttribute> = {};
  for (const [key, attribute] of Object.entries(attributes)) {
    if (isRelation(attribute) && typeof attribute.target === 'string' && attribute.target !== uid && !app.contentTypes.find(attribute.target)) {
      throw new BuilderError(`target: ${attribute.target} does not exist`);
    }
    converted[key] = convertAttribute(attribute);
  }
  return converted;
}

/** `components`: new components (named in its attributes by their `tmpUID`) and edits of existing ones sent with the type. */
export function createContentType(app: App, input: ContentTypeInput, components: readonly NestedComponent[] = []): string {
  const uid = `api::${input.singularName}.${input.singularName}`;
  if (app.contentTypes.find(uid)) throw new BuilderError('contentType.alreadyExists');
  const apiDir = path.join(app.dirs.app.api, input.singularName);
  const uids = nestedComponentUids(components);
  return commit(app, (workspace) => {
    const attributes = withSelfTargets(withComponentUids(app, input, uids).attributes, uid);
    const schema: SchemaFile = {
      kind: input.kind ?? 'collectionType',
      collectionName: input.collectionName || collectionNameOf(input.pluralName),
      info: { singularName: input.singularName, pluralName: input.pluralName, displayName: input.displayName, description: input.description },
      options: { ...(input.options ?? {}), draftAndPublish: input.draftAndPublish ?? false },
      pluginOptions: input.pluginOptions,
      attributes: {},
      config: input.config,
    };
    workspace.add(uid, path.join(apiDir, 'content-types', input.singularName, 'schema.json'), schema);
    schema.attributes = convertAll(app, attributes, uid);
    for (const [key, attribute] of Object.entries(attributes)) {
      if (!isRelation(attribute)) continue;
      const dominant = attribute.relation === 'manyToMany' || attribute.relation === 'oneToOne' ? true : attribute.dominant;
      setOtherSide(workspace, uid, key, { ...attribute, dominant });
    }
    applyNestedComponents(app, workspace, components, uids, uid);
    // The API's core router, controller and service, as `strapi generate content-type` with bootstrapApi.
    const language = apiLanguage(app.dir);
    for (const folder of API_FOLDERS) {
      const file = path.join(apiDir, folder, `${input.singularName}.${language}`);
      if (workspace.changes.exists(file)) throw new BuilderError(`File already exists: ${path.relative(app.dir, file)}`);
      workspace.changes.write(file, apiFileText(folder, language, input.singularName, uid));
    }
    return uid;
  });
}

/**
 * Strapi's `editContentType`: attributes replaced, relations' other sides set, moved or removed; the kind changed
 * when the body names another (the entry count is the controller's check); `components`: new components and edits
 * of existing ones sent with the edit. Unlike Strapi, a kind change leaves the type's API files as they are: Strapi
 * deletes and generates them again, which writes the same default files and loses any code an app put in them.
 */
export function editContentType(app: App, uid: string, given: ContentTypeInput, components: readonly NestedComponent[] = []): string {
  const uids = nestedComponentUids(components);
  return commit(app, (workspace) => {
    const input = withComponentUids(app, given, uids);
    const schema = workspace.get(uid);
    const oldAttributes = schema.attributes as Record<string, RawAttribute>;
    // A non-configurable attribute is kept as it is, whatever the panel sent for it.
    const newAttributes = Object.fromEntries(Object.entries(withSelfTargets(input.attributes, uid)).filter(([key]) => !(key in oldAttributes) || isConfigurable(oldAttributes[key])));
    for (const [key, attribute] of Object.entries(oldAttributes)) {
      if (!(key in newAttributes) && isConfigurable(attribute) && isRelation(attribute)) unsetOtherSide(workspace, attribute);
    }
    for (const [key, attribute] of Object.entries(newAttributes)) {
      const old = oldAttributes[key];
      if (!isRelation(attribute)) {
        if (isRelation(old)) unsetOtherSide(workspace, old);
        continue;
      }
      if (!old) {
        const dominant = attribute.relation === 'manyToMany' || attribute.relation === 'oneToOne' ? true : attribute.dominant;
        attribute.dominant = dominant;
      } else if (isRelation(old)) {
        if (old.relation !== attribute.relation || otherSideName(old) !== attribute.targetAttribute) unsetOtherSide(workspace, old);
        for (const [name, value] of Object.entries(old)) {
          if (!['configurable', 'required', 'private', 'unique', 'pluginOptions', 'inversedBy', 'mappedBy'].includes(name) && attribute[name] === undefined) attribute[name] = value;
        }
        if (old.inversedBy) attribute.dominant = true;
        else if (old.mappedBy) attribute.dominant = false;
      }
      setOtherSide(workspace, uid, key, attribute);
    }
    const converted = convertAll(app, newAttributes, uid);
    const kept = Object.fromEntries(Object.entries(oldAttributes).filter(([, attribute]) => !isConfigurable(attribute)));
    const info = { ...(schema.info ?? {}) };
    if (input.displayName !== undefined) info.displayName = input.displayName;
    if (input.description !== undefined) info.description = input.description;
    const next: SchemaFile = {
      ...schema,
      kind: input.kind ?? schema.kind,
      info,
      options: { ...(input.options ?? {}), draftAndPublish: input.draftAndPublish ?? false },
      pluginOptions: input.pluginOptions ?? schema.pluginOptions,
      attributes: { ...kept, ...converted },
    };
    workspace.replace(uid, next);
    applyNestedComponents(app, workspace, components, uids, uid);
    return uid;
  });
}

/** Strapi's `deleteContentType` and its API handler's `clear`: the schema, the type's own API files, every attribute pointing at it. */
export function deleteContentType(app: App, uid: string): string {
  const contentType = app.contentTypes.find(uid);
  if (!contentType) throw new BuilderError('contentType.notFound');
  return commit(app, (workspace) => {
    for (const other of workspace.allUids()) {
      if (other === uid) continue;
      for (const [name, attribute] of Object.entries(workspace.get(other).attributes)) {
        if (attribute.target === uid) workspace.deleteAttribute(other, name);
      }
    }
    workspace.delete(uid);
    const modelName = contentType.modelName ?? contentType.info.singularName;
    if (contentType.apiName) {
      // Files of the API named after the type (its router, controller, service), as Strapi's clear removes them.
      const apiDir = path.join(app.dirs.app.api, contentType.apiName);
      for (const folder of API_FOLDERS) {
        for (const language of ['js', 'ts']) {
          const file = path.join(apiDir, folder, `${modelName}.${language}`);
          if (workspace.changes.exists(file)) workspace.changes.remove(file, app.dirs.app.api);
        }
      }
    }
    return uid;
  });
}

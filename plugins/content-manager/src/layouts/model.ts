/**
 * The model as Strapi's content manager sees it (its data-mapper's `toContentManagerModel`): for each content type
 * and component, the attributes Strapi registers for it (the schema's, then `createdAt`/`updatedAt`, `publishedAt`
 * under draft & publish, `createdBy`/`updatedBy`), and the view the panel is answered: `id` first, the visible
 * attributes, the timestamps and the creator fields, relations with `targetModel`/`relationType`, morph relations
 * left out. Every layout rule and every answer of `/content-manager/init`, `/content-types` and `/components` reads
 * these, so the registry is read in one place.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App, Attribute, Component, ContentType } from '@tessera/core';

/** An attribute as the content manager reads it: the schema's fields plus what Strapi adds at registration. */
export interface CmAttribute {
  type: string;
  relation?: string;
  target?: string;
  targetModel?: string;
  relationType?: string;
  component?: string;
  components?: string[];
  customField?: string;
  visible?: boolean;
  writable?: boolean;
  [key: string]: unknown;
}

export interface CmModel {
  uid: string;
  modelType: 'contentType' | 'component';
  /** `pluginOptions['content-manager'].visible`, true unless false: whether the panel lists the type. */
  isDisplayed: boolean;
  /** Strapi's `modelName`: the singular name, or a component's file name. */
  apiID: string;
  kind?: ContentType['kind'];
  category?: string;
  info: Record<string, unknown>;
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  /** The content manager's view: `id`, the visible attributes, timestamps, creator fields. */
  attributes: Record<string, CmAttribute>;
  /** Every attribute Strapi registers (invisible ones too: `publishedAt`, `locale`): what `strapi.getModel` has. */
  allAttributes: Record<string, CmAttribute>;
  /** Attributes the schema's `config` hides from the content manager's layouts. */
  hidden: string[];
}

/** Strapi's `createdBy`/`updatedBy`, added to every content type. */
const CREATOR_FIELD: CmAttribute = { type: 'relation', relation: 'oneToOne', target: 'admin::user', configurable: false, writable: false, visible: false, useJoinTable: false, private: true };
const TIMESTAMPS = ['createdAt', 'updatedAt'];
const CREATOR_FIELDS = ['createdBy', 'updatedBy'];

/**
 * Strapi registers its admin types first (in its own order), then each plugin's (in the order plugins load: its
 * internal ones, then the app's `package.json` dependencies; a plugin's types by name, as its `content-types` folder
 * lists them), then the app's: the panel's answers list them so. Tessera's registry fills in another order (the
 * app's first), hence the sort.
 */
const STRAPI_INTERNAL_PLUGINS = ['content-manager', 'content-type-builder', 'email', 'upload', 'content-releases'];
const ADMIN_ORDER = ['admin::permission', 'admin::user', 'admin::role', 'admin::api-token', 'admin::api-token-permission', 'admin::transfer-token', 'admin::transfer-token-permission'];
const NAMESPACE_ORDER = ['admin', 'plugin', 'api'];

function asAttribute(attribute: Attribute): CmAttribute {
  return { ...attribute };
}

/** The attributes Strapi's registry holds for a content type, in its order. */
function registeredAttributes(contentType: ContentType): Record<string, CmAttribute> {
  const attributes: Record<string, CmAttribute> = {};
  for (const [name, attribute] of Object.entries(contentType.attributes)) attributes[name] = asAttribute(attribute);
  for (const name of TIMESTAMPS) attributes[name] ??= { type: 'datetime' };
  if (contentType.options?.draftAndPublish === true) attributes.publishedAt ??= { type: 'datetime', configurable: false, writable: true, visible: false };
  for (const name of CREATOR_FIELDS) attributes[name] ??= { ...CREATOR_FIELD };
  return attributes;
}

const isMorph = (attribute: CmAttribute) => attribute.type === 'relation' && String(attribute.relation ?? '').toLowerCase().includes('morph');
const withRelationKeys = (attribute: CmAttribute): CmAttribute =>
  attribute.type === 'relation' ? { ...attribute, type: 'relation', targetModel: attribute.target, relationType: attribute.relation } : attribute;

/** Strapi's `formatAttributes`: visible attributes (not id, not the timestamps, not `visible: false`), then the timestamps and creator fields. */
function contentManagerAttributes(all: Record<string, CmAttribute>): Record<string, CmAttribute> {
  const attributes: Record<string, CmAttribute> = { id: { type: 'integer' } };
  const visible = Object.keys(all).filter((name) => name !== 'id' && !TIMESTAMPS.includes(name) && all[name].visible !== false);
  const shown = [...visible, ...TIMESTAMPS.filter((name) => name in all), ...CREATOR_FIELDS.filter((name) => name in all)];
  for (const name of shown) if (!isMorph(all[name])) attributes[name] = withRelationKeys(all[name]);
  return attributes;
}

/** Shown in the content manager: not `pluginOptions['content-manager'].visible: false` (users-permissions' role). */
export function isDisplayed(pluginOptions: Record<string, unknown> | undefined): boolean {
  const options = pluginOptions?.['content-manager'];
  if (options === null || typeof options !== 'object') return true;
  const visible = (options as Record<string, unknown>).visible;
  return visible === undefined || visible === true;
}

function fromContentType(contentType: ContentType): CmModel {
  const allAttributes = registeredAttributes(contentType);
  return withoutUndefined({
    uid: contentType.uid,
    modelType: 'contentType' as const,
    isDisplayed: isDisplayed(contentType.pluginOptions),
    apiID: contentType.modelName ?? contentType.info.singularName,
    kind: contentType.kind,
    info: { ...contentType.info },
    options: contentType.options,
    pluginOptions: contentType.pluginOptions,
    attributes: contentManagerAttributes(allAttributes),
    allAttributes,
    hidden: Object.entries(contentType.config?.attributes ?? {}).filter(([, options]) => options?.hidden === true).map(([name]) => name),
  });
}

function fromComponent(component: Component): CmModel {
  const allAttributes: Record<string, CmAttribute> = {};
  for (const [name, attribute] of Object.entries(component.attributes)) allAttributes[name] = asAttribute(attribute);
  const pluginOptions = (component as Component & { pluginOptions?: Record<string, unknown> }).pluginOptions;
  return withoutUndefined({
    uid: component.uid,
    modelType: 'component' as const,
    isDisplayed: isDisplayed(pluginOptions),
    apiID: component.uid.slice(component.category.length + 1),
    category: component.category,
    info: { ...component.info },
    options: component.options,
    pluginOptions,
    attributes: contentManagerAttributes(allAttributes),
    allAttributes,
    hidden: [],
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** Sort keys in Strapi's registration order (see ADMIN_ORDER); `plugins` lists plugin names as they first appear. */
function rank(contentType: ContentType, plugins: string[]): Array<number | string> {
  const [namespace, rest = ''] = contentType.uid.split('::');
  const group = NAMESPACE_ORDER.indexOf(namespace);
  if (namespace === 'admin') return [group, ADMIN_ORDER.indexOf(contentType.uid) === -1 ? ADMIN_ORDER.length : ADMIN_ORDER.indexOf(contentType.uid), ''];
  if (namespace === 'plugin') return [group, plugins.indexOf(rest.split('.')[0]), rest];
  return [group === -1 ? NAMESPACE_ORDER.length : group, 0, ''];
}

function compareRanks(a: Array<number | string>, b: Array<number | string>): number {
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] === b[index]) continue;
    return typeof a[index] === 'number' ? Number(a[index]) - Number(b[index]) : String(a[index]) < String(b[index]) ? -1 : 1;
  }
  return 0;
}

/** Plugin names in Strapi's load order: its internal plugins, then the app's dependencies as listed, then any other. */
function pluginLoadOrder(app: App, types: ContentType[]): string[] {
  const listed = Object.keys(readDependencies(app.dir)).map((name) => /^@strapi\/plugin-(.+)$/.exec(name)?.[1] ?? name);
  const present = types.filter((type) => type.uid.startsWith('plugin::')).map((type) => type.uid.slice('plugin::'.length).split('.')[0]);
  return [...new Set([...STRAPI_INTERNAL_PLUGINS, ...listed, ...present])];
}

function readDependencies(dir: string): Record<string, unknown> {
  try {
    const manifest: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const dependencies = manifest !== null && typeof manifest === 'object' ? (manifest as { dependencies?: unknown }).dependencies : undefined;
    return dependencies !== null && typeof dependencies === 'object' ? (dependencies as Record<string, unknown>) : {};
  } catch {
    // No readable package.json: the registry's own order then.
    return {};
  }
}

/** The content manager's models of one app, computed once per call from the registries. */
export class ModelIndex {
  readonly contentTypes: CmModel[];
  readonly components: CmModel[];
  readonly #byUid = new Map<string, CmModel>();

  constructor(app: App) {
    // The registry's types as Strapi's `strapi.contentTypes` holds them: Tessera's bare tables (the core store) are not content types.
    const types = app.contentTypes.values().filter((contentType) => contentType.bareTable !== true);
    const plugins = pluginLoadOrder(app, types);
    const ordered = types.map((contentType, index) => ({ contentType, index, rank: rank(contentType, plugins) }));
    // Ties (the app's types) keep the registry's order.
    ordered.sort((a, b) => compareRanks(a.rank, b.rank) || a.index - b.index);
    this.contentTypes = ordered.map(({ contentType }) => fromContentType(contentType));
    this.components = app.components.values().map(fromComponent);
    for (const model of [...this.contentTypes, ...this.components]) this.#byUid.set(model.uid, model);
  }

  contentType(uid: string | undefined): CmModel | undefined {
    const model = uid === undefined ? undefined : this.#byUid.get(uid);
    return model?.modelType === 'contentType' ? model : undefined;
  }

  component(uid: string | undefined): CmModel | undefined {
    const model = uid === undefined ? undefined : this.#byUid.get(uid);
    return model?.modelType === 'component' ? model : undefined;
  }
}

/** Strapi's `toDto`: the fields of a model the panel is answered, in Strapi's order. */
export function toDto(model: CmModel): Record<string, unknown> {
  return withoutUndefined({
    uid: model.uid,
    isDisplayed: model.isDisplayed,
    apiID: model.apiID,
    kind: model.kind,
    category: model.category,
    info: model.info,
    options: model.options,
    pluginOptions: model.pluginOptions,
    attributes: model.attributes,
  });
}

const indexes = new WeakMap<App, ModelIndex>();

/** The app's models, built on first use (the registries are closed once the app has loaded). */
export function modelsOf(app: App): ModelIndex {
  let index = indexes.get(app);
  if (!index) {
    index = new ModelIndex(app);
    indexes.set(app, index);
  }
  return index;
}

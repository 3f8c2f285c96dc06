/**
 * Finding, updating and syncing view configurations (Strapi 4.26.2's `content-types` and `components` services
 * and their `configuration` service): answers are the stored value over empty parts, with the configurations of
 * every component a type shows (nested ones too); each read is one query.
 */
import type { App } from '@tessera/core';
import type { Metadata, StoredConfiguration } from './configuration';
import { defaultConfiguration } from './defaults';
import { modelsOf, type CmModel, type ModelIndex } from './model';
import { deleteConfiguration, readAll, readMany, storeKey, withEmptyParts, writeConfiguration, type ConfigurationKind } from './store';
import { syncConfiguration } from './sync';

/**
 * Types of Strapi's own that Tessera does not run (transfer tokens, releases): a Strapi-made database's
 * configurations of them are left in place for Strapi, where sync would drop those of a removed type.
 */
const STRAPI_ONLY = new Set(['admin::transfer-token', 'admin::transfer-token-permission', 'plugin::content-releases.release', 'plugin::content-releases.release-action']);

/** The components a model shows, nested ones after the one holding them, each once (Strapi's `findComponentsConfigurations` order). */
export function componentsShown(models: ModelIndex, model: CmModel, seen: string[] = []): string[] {
  for (const attribute of Object.values(model.attributes)) {
    const uids = attribute.type === 'component' ? [attribute.component] : attribute.type === 'dynamiczone' ? attribute.components ?? [] : [];
    for (const uid of uids) {
      const component = models.component(uid);
      if (!component || seen.includes(component.uid)) continue;
      seen.push(component.uid);
      componentsShown(models, component, seen);
    }
  }
  return seen;
}

function componentAnswer(model: CmModel, stored: StoredConfiguration | undefined): Record<string, unknown> {
  return { uid: model.uid, category: model.category, ...withEmptyParts(stored) };
}

/** Strapi's `assocMainField`: a relation's list metadata names the edit one's main field. */
function withListMainField(metadatas: Record<string, Metadata>): Record<string, Metadata> {
  const answered: Record<string, Metadata> = {};
  for (const [name, metadata] of Object.entries(metadatas)) {
    answered[name] = metadata?.edit && 'mainField' in metadata.edit ? { ...metadata, list: { ...metadata.list, mainField: metadata.edit.mainField } } : metadata;
  }
  return answered;
}

async function readWithComponents(app: App, kind: ConfigurationKind, model: CmModel) {
  const models = modelsOf(app);
  const components = componentsShown(models, model);
  const stored = await readMany(app, [{ kind, uid: model.uid }, ...components.map((uid) => ({ kind: 'components' as const, uid }))]);
  const componentAnswers: Record<string, unknown> = {};
  for (const uid of components) componentAnswers[uid] = componentAnswer(models.component(uid)!, stored.get(storeKey('components', uid)));
  return { own: stored.get(storeKey(kind, model.uid)), components: componentAnswers };
}

/** `GET /content-types/:uid/configuration`'s data. */
export async function contentTypeConfiguration(app: App, model: CmModel) {
  const { own, components } = await readWithComponents(app, 'content_types', model);
  const configuration = { uid: model.uid, ...withEmptyParts(own) };
  return { contentType: { ...configuration, metadatas: withListMainField(configuration.metadatas as Record<string, Metadata>) }, components };
}

/** `GET /components/:uid/configuration`'s data. */
export async function componentConfiguration(app: App, model: CmModel) {
  const { own, components } = await readWithComponents(app, 'components', model);
  return { component: componentAnswer(model, own), components };
}

/** Stores a checked PUT body's parts over the stored configuration (with Strapi's `uid` and, for components, `isComponent`). */
export async function updateConfiguration(app: App, kind: ConfigurationKind, model: CmModel, input: Record<string, unknown>): Promise<void> {
  const stored = (await readMany(app, [{ kind, uid: model.uid }])).get(storeKey(kind, model.uid));
  await writeConfiguration(app, kind, model.uid, stored, { ...input, uid: model.uid, ...(kind === 'components' ? { isComponent: true } : {}) });
}

/** `GET /content-types-settings`'s data: each content type's settings (empty when none are stored). */
export async function contentTypesSettings(app: App) {
  const stored = await readAll(app, 'content_types');
  return modelsOf(app).contentTypes.map((model) => ({ uid: model.uid, settings: withEmptyParts(stored.get(model.uid)).settings }));
}

async function syncKind(app: App, kind: ConfigurationKind, list: CmModel[]): Promise<void> {
  const models = modelsOf(app);
  const stored = await readAll(app, kind);
  const current = new Set(list.map((model) => model.uid));
  for (const uid of stored.keys()) if (!current.has(uid) && !STRAPI_ONLY.has(uid)) await deleteConfiguration(app, kind, uid);
  const extra = kind === 'components' ? { isComponent: true } : {};
  for (const model of list) {
    const existing = stored.get(model.uid);
    const configuration = existing ? syncConfiguration(models, existing, model) : defaultConfiguration(models, model);
    await writeConfiguration(app, kind, model.uid, existing, { ...configuration, uid: model.uid, ...extra });
  }
}

/** At boot (Strapi's bootstrap): components, then content types; a type without a configuration gets the default one. */
export async function syncConfigurations(app: App): Promise<void> {
  await syncKind(app, 'components', modelsOf(app).components);
  await syncKind(app, 'content_types', modelsOf(app).contentTypes);
}

/**
 * A stored configuration brought in line with the type's current attributes (Strapi 4.26.2's
 * `syncConfiguration`), run at every boot: a removed attribute leaves the metadatas and layouts, an added one gets
 * its default metadata and takes a place at the end of the edit layout (and in the list while it has fewer than
 * four fields), a main field or default sort that no longer applies falls back to the type's first string field,
 * and a field stored at a size its type may not take is placed again at its default size. What the panel set and
 * still applies is kept as it is, so a Strapi-made store syncs to itself.
 */
import { defaultMainField, hasEditableAttribute, hasRelationAttribute, isListable, isSearchable, isSortable } from './attribute-rules';
import { deepMerge, isEmpty, isPlainObject, type Configuration, type EditField, type Layouts, type Metadata, type Settings, type StoredConfiguration } from './configuration';
import { appendToEditLayout, DEFAULT_LIST_LENGTH, defaultEditLayout, defaultLayouts, defaultListLayout, defaultMetadatas, defaultSettings } from './defaults';
import { isAllowedFieldSize } from './field-sizes';
import type { CmModel, ModelIndex } from './model';
import { isValidDefaultSort } from './sort';

export function syncSettings(models: ModelIndex, stored: StoredConfiguration, schema: CmModel): Settings {
  if (isEmpty(stored.settings)) return defaultSettings(schema);
  const settings = stored.settings as Settings;
  const fallback = defaultMainField(schema);
  const mainField = typeof settings.mainField === 'string' ? settings.mainField : fallback;
  const defaultSortBy = settings.defaultSortBy ?? fallback;
  return {
    ...settings,
    mainField: isSortable(schema, mainField) ? mainField : fallback,
    defaultSortBy: isValidDefaultSort(models, schema, defaultSortBy) ? defaultSortBy : fallback,
  };
}

export function syncMetadatas(models: ModelIndex, stored: StoredConfiguration, schema: CmModel): Record<string, Metadata> {
  if (isEmpty(stored.metadatas)) return defaultMetadatas(models, schema);
  const storedMetadatas = stored.metadatas as Record<string, Metadata>;
  const kept: Record<string, Metadata> = {};
  for (const name of Object.keys(schema.attributes)) if (name in storedMetadatas) kept[name] = storedMetadatas[name];
  const merged = deepMerge<Record<string, Metadata>>({}, defaultMetadatas(models, schema), kept);
  for (const [name, { edit, list }] of Object.entries(merged)) {
    const attribute = schema.attributes[name];
    let updated: Metadata | undefined;
    const update = () => (updated ??= { edit, list });
    if (list.sortable && !isSortable(schema, name)) update().list = { ...update().list, sortable: false };
    if (list.searchable && !isSearchable(schema, name)) update().list = { ...update().list, searchable: false };
    if ('mainField' in edit) {
      if (attribute.type !== 'relation') {
        const { mainField: _dropped, ...rest } = edit;
        update().edit = rest;
      } else if (edit.mainField !== 'id') {
        const target = models.contentType(attribute.targetModel);
        const field = String(edit.mainField);
        if (target && !isSortable(target, field) && !isListable(target, field)) update().edit = { ...update().edit, mainField: defaultMainField(target) };
      }
    }
    if (updated) merged[name] = updated;
  }
  return merged;
}

const editFieldsOf = (value: unknown): EditField[][] =>
  Array.isArray(value) ? value.filter(Array.isArray).map((row: unknown[]) => row.filter((field): field is EditField => isPlainObject(field) && typeof field.name === 'string')) : [];
const namesOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []);

export function syncLayouts(stored: StoredConfiguration, schema: CmModel): Layouts {
  if (isEmpty(stored.layouts)) return defaultLayouts(schema);
  const layouts = stored.layouts as Partial<Layouts>;
  let list = namesOf(layouts.list).filter((name) => isListable(schema, name));
  const reAppend = namesOf(layouts.editRelations).filter((name) => hasRelationAttribute(schema, name));
  let edit: EditField[][] = [];
  for (const row of editFieldsOf(layouts.edit)) {
    const kept: EditField[] = [];
    for (const field of row) {
      if (!hasEditableAttribute(schema, field.name)) continue;
      if (!isAllowedFieldSize(schema.attributes[field.name].type, field.size)) {
        reAppend.push(field.name);
        continue;
      }
      kept.push(field);
    }
    if (kept.length > 0) edit.push(kept);
  }
  edit = appendToEditLayout(edit, reAppend, schema);
  const known = isPlainObject(stored.metadatas) ? Object.keys(stored.metadatas) : [];
  const added = Object.keys(schema.attributes).filter((name) => !known.includes(name));
  if (list.length < DEFAULT_LIST_LENGTH) list = [...new Set(list.concat(added.filter((name) => isListable(schema, name))).slice(0, DEFAULT_LIST_LENGTH))];
  edit = appendToEditLayout(edit, added.filter((name) => hasEditableAttribute(schema, name)), schema);
  return { list: list.length > 0 ? list : defaultListLayout(schema), edit: edit.length > 0 ? edit : defaultEditLayout(schema) };
}

/** Strapi's order: settings, layouts, metadatas (the metadatas' sync reads the stored ones, never the new layouts). */
export function syncConfiguration(models: ModelIndex, stored: StoredConfiguration, schema: CmModel): Configuration {
  const settings = syncSettings(models, stored, schema);
  const layouts = syncLayouts(stored, schema);
  const metadatas = syncMetadatas(models, stored, schema);
  return { settings, layouts, metadatas };
}

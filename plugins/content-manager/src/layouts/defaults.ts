/**
 * The configuration Strapi 4.26.2 generates for a type that has none (`createDefaultConfiguration`): settings sorted
 * and labelled by the first string field, a metadata per attribute, the first four listable fields in the list,
 * and every editable field in the edit layout, row by row in the 12-column grid.
 */
import { defaultMainField, hasEditableAttribute, isListable, isSearchable, isSortable, isVisible } from './attribute-rules';
import type { Configuration, EditField, Layouts, Metadata, Settings } from './configuration';
import { fieldSize, MAX_ROW_SIZE } from './field-sizes';
import type { CmModel, ModelIndex } from './model';

export const DEFAULT_LIST_LENGTH = 4;

export function defaultSettings(schema: CmModel): Settings {
  const mainField = defaultMainField(schema);
  return { bulkable: true, filterable: true, searchable: true, pageSize: 10, mainField, defaultSortBy: mainField, defaultSortOrder: 'ASC' };
}

export function defaultMetadata(models: ModelIndex, schema: CmModel, name: string): Metadata {
  const edit: Metadata['edit'] = { label: name, description: '', placeholder: '', visible: isVisible(schema, name), editable: true };
  const attribute = schema.attributes[name];
  if (attribute.type === 'relation') {
    const target = models.contentType(attribute.targetModel);
    if (target) edit.mainField = defaultMainField(target);
  }
  return { edit, list: { label: name, searchable: isSearchable(schema, name), sortable: isSortable(schema, name) } };
}

export function defaultMetadatas(models: ModelIndex, schema: CmModel): Record<string, Metadata> {
  const metadatas: Record<string, Metadata> = {};
  for (const name of Object.keys(schema.attributes)) metadatas[name] = defaultMetadata(models, schema, name);
  // Strapi writes `id` last, over the one made in the loop.
  metadatas.id = { edit: {}, list: { label: 'id', searchable: true, sortable: true } };
  return metadatas;
}

export function defaultListLayout(schema: CmModel): string[] {
  return Object.keys(schema.attributes).filter((name) => isListable(schema, name)).slice(0, DEFAULT_LIST_LENGTH);
}

export function defaultEditLayout(schema: CmModel): EditField[][] {
  return appendToEditLayout([], Object.keys(schema.attributes).filter((name) => hasEditableAttribute(schema, name)), schema);
}

export function defaultLayouts(schema: CmModel): Layouts {
  return { list: defaultListLayout(schema), edit: defaultEditLayout(schema) };
}

export function defaultConfiguration(models: ModelIndex, schema: CmModel): Configuration {
  return { settings: defaultSettings(schema), metadatas: defaultMetadatas(models, schema), layouts: defaultLayouts(schema) };
}

const rowSize = (row: EditField[]) => row.reduce((sum, field) => sum + field.size, 0);

/** Places fields at their default size after the layout's last row, opening a new row when one would overflow. */
export function appendToEditLayout(layout: EditField[][], names: string[], schema: CmModel): EditField[][] {
  if (names.length === 0) return layout;
  let row = Math.max(layout.length - 1, 0);
  layout[row] ??= [];
  for (const name of names) {
    const size = fieldSize(schema.attributes[name].type).default;
    if (rowSize(layout[row]) + size > MAX_ROW_SIZE) {
      row += 1;
      layout[row] = [];
    }
    layout[row].push({ name, size });
  }
  return layout;
}

/**
 * The body of `PUT /content-manager/{content-types,components}/:uid/configuration`, checked as Strapi 4.26.2's
 * `createModelConfigurationSchema` checks it (strict, every error at once; messages and order in
 * schema-checks.ts): settings with a listable main field and a valid default sort, a metadata per attribute (a
 * relation's main field one of its target's listable fields), list fields the type may list and edit rows of
 * fields it may edit. What passes is stored as it was sent, so the answer lists exactly what yup would refuse.
 */
import { hasEditableAttribute, isListable } from './attribute-rules';
import type { CmModel, ModelIndex } from './model';
import { checkArray, checkBoolean, checkNumber, checkObject, checkString, type Check } from './schema-checks';
import { isValidDefaultSort } from './sort';

const listableOf = (schema: CmModel) => Object.keys(schema.attributes).filter((name) => isListable(schema, name));
const optionalString: Check = (path, value, start) => checkString(path, value, start);
const optionalBoolean: Check = (path, value, start) => checkBoolean(path, value, start);
const requiredBoolean: Check = (path, value, start) => checkBoolean(path, value, start, true);

function settingsCheck(models: ModelIndex, schema: CmModel): Check {
  const valid = [...listableOf(schema), 'id'];
  const sortTest = (value: unknown) => (isValidDefaultSort(models, schema, value) ? undefined : 'is not a valid sort attribute');
  return (path, value, start) =>
    checkObject(path, value, start, {
      nullable: true,
      noUnknown: true,
      fields: [
        ['bulkable', requiredBoolean],
        ['filterable', requiredBoolean],
        ['pageSize', (p, v, s) => checkNumber(p, v, s, { integer: true, min: 10, max: 100, required: true })],
        ['searchable', requiredBoolean],
        ['mainField', (p, v, s) => checkString(p, v, s, { values: valid })],
        ['defaultSortBy', (p, v, s) => checkString(p, v, s, { test: (w) => (sortTest(w) ? `${p} ${sortTest(w)}` : undefined) })],
        ['defaultSortOrder', (p, v, s) => checkString(p, v, s, { values: ['ASC', 'DESC'] })],
      ],
    });
}

/** A relation's `edit.mainField`: any string when empty or when the target is unknown, else one of the target's listable fields. */
function mainFieldCheck(models: ModelIndex, schema: CmModel, name: string): Check {
  return (path, value, start) => {
    const target = value ? models.contentType(schema.attributes[name].targetModel) : undefined;
    return checkString(path, value, start, target ? { values: [...listableOf(target), 'id'] } : {});
  };
}

function metadataCheck(models: ModelIndex, schema: CmModel, name: string): Check {
  const edit: Check = (path, value, start) =>
    checkObject(path, value, start, {
      required: true,
      noUnknown: true,
      fields: [
        ['label', optionalString],
        ['description', optionalString],
        ['placeholder', optionalString],
        ['editable', optionalBoolean],
        ['visible', optionalBoolean],
        ['mainField', mainFieldCheck(models, schema, name)],
      ],
    });
  const list: Check = (path, value, start) =>
    checkObject(path, value, start, {
      required: true,
      noUnknown: true,
      fields: [
        ['label', optionalString],
        ['searchable', optionalBoolean],
        ['sortable', optionalBoolean],
      ],
    });
  return (path, value, start) => checkObject(path, value, start, { noUnknown: true, fields: [['edit', edit], ['list', list]] });
}

function metadatasCheck(models: ModelIndex, schema: CmModel): Check {
  const fields: Array<[string, Check]> = Object.keys(schema.attributes).map((name) => [name, metadataCheck(models, schema, name)]);
  // Keys of no attribute are let through (the shape has no `noUnknown`); the next boot's sync drops them.
  return (path, value, start) => checkObject(path, value, start, { nullable: true, fields });
}

function layoutsCheck(schema: CmModel): Check {
  const listable = listableOf(schema);
  const editable = Object.keys(schema.attributes).filter((name) => hasEditableAttribute(schema, name));
  const editField: Check = (path, value, start) =>
    checkObject(path, value, start, {
      noUnknown: true,
      fields: [
        ['name', (p, v, s) => checkString(p, v, s, { values: editable, required: true })],
        ['size', (p, v, s) => checkNumber(p, v, s, { integer: true, positive: true, required: true })],
      ],
    });
  const row: Check = (path, value, start) => checkArray(path, value, start, editField);
  return (path, value, start) =>
    checkObject(path, value, start, {
      nullable: true,
      fields: [
        ['edit', (p, v, s) => checkArray(p, v, s, row, true)],
        ['list', (p, v, s) => checkArray(p, v, s, (q, name, t) => checkString(q, name, t, { values: listable }), true)],
      ],
    });
}

/** The messages yup would give for this body (none: it is valid and stored as it is). */
export function configurationErrors(models: ModelIndex, schema: CmModel, body: unknown): string[] {
  return checkObject(undefined, body, 0, {
    noUnknown: true,
    fields: [
      ['settings', settingsCheck(models, schema)],
      ['metadatas', metadatasCheck(models, schema)],
      ['layouts', layoutsCheck(schema)],
      ['options', (path, value, start) => checkObject(path, value, start, { fields: [] })],
    ],
  }).errors;
}

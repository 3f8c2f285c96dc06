/**
 * GraphQL arguments → the content API's parameters, so both transports
 * share one compiler: `filters` gain their `$` operators, `sort` and
 * `pagination` pass through, `publicationState` is `live`/`preview` already
 * (the enum's internal values), `data` drops the timestamps REST ignores.
 */
import type { GraphqlModel, SchemaModel } from '../model';

/**
 * `{ title: { containsi: 'x' }, or: [{ views: { gt: 1 } }] }` →
 * `{ title: { $containsi: 'x' }, $or: [{ views: { $gt: 1 } }] }`. The model
 * says which keys are attributes (a relation or component goes one level
 * down) and which hold a scalar's operators. A scalar's `and`/`or` take
 * values: each means `$eq`.
 */
export function toRestFilters(filters: unknown, model: GraphqlModel, schemaModel: SchemaModel): unknown {
  if (!isObject(filters)) return filters;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (key === 'and' || key === 'or') result[`$${key}`] = asList(value).map((item) => toRestFilters(item, model, schemaModel));
    else if (key === 'not') result.$not = toRestFilters(value, model, schemaModel);
    else {
      const target = linkTarget(model, key, schemaModel);
      result[key] = target ? toRestFilters(value, target, schemaModel) : toRestOperators(value);
    }
  }
  return result;
}

function linkTarget(model: GraphqlModel, name: string, schemaModel: SchemaModel): GraphqlModel | undefined {
  const attribute = model.attributes.find((entry) => entry.name === name)?.attribute;
  if (attribute?.type === 'relation') return schemaModel.get(attribute.target!);
  if (attribute?.type === 'component') return schemaModel.get(attribute.component);
  return undefined;
}

function toRestOperators(filter: unknown): unknown {
  if (!isObject(filter)) return filter;
  const result: Record<string, unknown> = {};
  for (const [operator, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (operator === 'not') result.$not = toRestOperators(value);
    else if (operator === 'and' || operator === 'or') result[`$${operator}`] = asList(value).map((item) => ({ $eq: item }));
    else result[`$${operator}`] = value;
  }
  return result;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The pagination argument without the keys left unset (GraphQL gives `{}` by default). */
export function toRestPagination(pagination: unknown, withCount: boolean): Record<string, unknown> {
  const result: Record<string, unknown> = { withCount };
  if (isObject(pagination)) {
    for (const key of ['page', 'pageSize', 'start', 'limit']) {
      if (pagination[key] !== undefined && pagination[key] !== null) result[key] = pagination[key];
    }
  }
  return result;
}

/** A mutation's `data`: timestamps are the server's; everything else goes to the shared validation. */
export function toRestData(data: unknown): unknown {
  if (!isObject(data)) return data;
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = data;
  return rest;
}

/** A plain-object copy: GraphQL hands arguments as null-prototype objects, which the compiler does not take for objects. */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = plain(item);
    return result;
  }
  return value;
}

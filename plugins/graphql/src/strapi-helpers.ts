/**
 * The graphql plugin's helper services as Strapi v4 names them, for plugins
 * that build their own types, arguments and queries beside the generated ones
 * (strapi-plugin-comments builds a filters input for its comment schema,
 * strapi-plugin-fuzzy-search pages its results with `transformArgs`):
 *
 *   service('constants')   scalar lists, Strapi scalar → GraphQL scalar, shared type names
 *   service('internals')   `args`: SortArg, PaginationArg, PublicationStateArg (nexus args)
 *   service('builders')    `filters.operators` (each `{ fieldName, strapiOperator, add(t, type) }`),
 *                          `utils.transformArgs`, `utils.getContentTypeArgs`
 *   service('utils')       `naming`, `attributes` (isStrapiScalar, isRelation…), `mappers`
 *
 * Answers are Strapi 4.26.2's (its `@strapi/plugin-graphql` services), computed
 * over the app's model: relation targets are read with `app.getModel`.
 */
import * as nexus from 'nexus';
import { PaginationError, ValidationError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { readConfig } from './config';
import { namingUtils } from './naming';
import { PaginationArg as PaginationInput } from './schema/shared-types';
import type {
  ContentTypeArgs,
  FilterOperator,
  GraphqlAttribute as AnyAttribute,
  GraphqlAttributeHelpers,
  GraphqlBuilders,
  GraphqlConstants,
  GraphqlInternals,
  GraphqlModel as AnyModel,
  GraphqlUtils,
} from './helper-contract';

export const GRAPHQL_SCALARS = ['ID', 'Boolean', 'Int', 'String', 'Long', 'Float', 'JSON', 'Date', 'Time', 'DateTime'];

export const SCALARS_ASSOCIATIONS: Record<string, string> = {
  uid: 'String',
  email: 'String',
  password: 'String',
  text: 'String',
  boolean: 'Boolean',
  integer: 'Int',
  string: 'String',
  enumeration: 'String',
  richtext: 'String',
  blocks: 'JSON',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  json: 'JSON',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
};

export const STRAPI_SCALARS = Object.keys(SCALARS_ASSOCIATIONS);

const VALUE_OPERATORS = ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte'];
const LIST_OPERATORS = ['in', 'notIn', 'between'];
const BOOLEAN_OPERATORS = ['null', 'notNull'];
const ALL_OPERATORS = ['and', 'or', 'not', ...VALUE_OPERATORS, ...BOOLEAN_OPERATORS, ...LIST_OPERATORS];

export function constantsService(): GraphqlConstants {
  return {
    PAGINATION_TYPE_NAME: 'Pagination',
    RESPONSE_COLLECTION_META_TYPE_NAME: 'ResponseCollectionMeta',
    PUBLICATION_STATE_TYPE_NAME: 'PublicationState',
    ERROR_TYPE_NAME: 'Error',
    GENERIC_MORPH_TYPENAME: 'GenericMorph',
    GRAPHQL_SCALARS,
    STRAPI_SCALARS,
    SCALARS_ASSOCIATIONS,
    GRAPHQL_SCALAR_OPERATORS: Object.fromEntries(GRAPHQL_SCALARS.map((scalar) => [scalar, ALL_OPERATORS])),
    ERROR_CODES: { emptyDynamicZone: 'dynamiczone.empty' },
  };
}

const SortArg = nexus.arg({ type: nexus.list('String'), default: [] });
const PaginationArg = nexus.arg({ type: PaginationInput, default: {} });
const PublicationStateArg = nexus.arg({ type: 'PublicationState', default: 'live' });

export function internalsService(): GraphqlInternals {
  return { args: { SortArg, PaginationArg, PublicationStateArg } };
}

function filterOperators(): Record<string, FilterOperator> {
  const operators: Record<string, FilterOperator> = {
    and: { fieldName: 'and', strapiOperator: '$and', add: (t, type) => t.field('and', { type: nexus.list(type) }) },
    or: { fieldName: 'or', strapiOperator: '$or', add: (t, type) => t.field('or', { type: nexus.list(type) }) },
    not: {
      fieldName: 'not',
      strapiOperator: '$not',
      // On a scalar's filter input, `not` takes that input; on a type's, the type's own.
      add: (t, type) => t.field('not', { type: GRAPHQL_SCALARS.includes(type) ? `${type}FilterInput` : type }),
    },
  };
  for (const name of VALUE_OPERATORS) {
    operators[name] = {
      fieldName: name,
      strapiOperator: `$${name}`,
      add(t, type) {
        if (name === 'eq' && !GRAPHQL_SCALARS.includes(type)) throw new ValidationError(`Can't use "eq" operator. "${type}" is not a valid scalar`);
        t.field(name, { type });
      },
    };
  }
  for (const name of BOOLEAN_OPERATORS) operators[name] = { fieldName: name, strapiOperator: `$${name}`, add: (t) => t.boolean(name) };
  for (const name of LIST_OPERATORS) {
    operators[name] = { fieldName: name, strapiOperator: `$${name}`, add: (t, type) => t.field(name, { type: nexus.list(type) }) };
  }
  return operators;
}

export function attributeHelpers(): GraphqlAttributeHelpers {
  const is = (type: string) => (attribute: AnyAttribute | undefined) => attribute?.type === type;
  return {
    isStrapiScalar: (attribute: AnyAttribute | undefined) => STRAPI_SCALARS.includes(String(attribute?.type)),
    isGraphQLScalar: (attribute: AnyAttribute | undefined) => GRAPHQL_SCALARS.includes(String(attribute?.type)),
    isMorphRelation: (attribute: AnyAttribute | undefined) => attribute?.type === 'relation' && String(attribute.relation).includes('morph'),
    isMedia: is('media'),
    isRelation: is('relation'),
    isEnumeration: is('enumeration'),
    isComponent: is('component'),
    isDynamicZone: is('dynamiczone'),
  };
}

const plainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `graphQLFiltersToStrapiQuery(filters, contentType)`, as Strapi's: keys that are attributes (or `id`) keep their
 * name, their scalar operators gain `$`, relations, media and components go one level down into their target's
 * model; `and`/`or`/`not` at a type's level become `$and`/`$or`/`$not`; any other key is dropped.
 */
function filtersToQuery(app: App, operators: Record<string, FilterOperator>, attributes: GraphqlAttributeHelpers) {
  const replaceOperators = (data: unknown): unknown => {
    if (Array.isArray(data)) return data.map(replaceOperators);
    if (data instanceof Date || typeof data !== 'object' || data === null) return data;
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) result[operators[key]?.strapiOperator ?? key] = replaceOperators(value);
    return result;
  };
  const rootOperators = [operators.and!, operators.or!, operators.not!];
  const toQuery = (filters: unknown, model: AnyModel | undefined): unknown => {
    if (filters === null || filters === undefined) return {};
    if (Array.isArray(filters)) return filters.map((item) => toQuery(item, model));
    const result: Record<string, unknown> = {};
    if (!plainObject(filters) && typeof filters !== 'object') return result;
    const modelAttributes = model?.attributes ?? {};
    for (const [key, value] of Object.entries(filters as object)) {
      if (key === 'id' || Object.prototype.hasOwnProperty.call(modelAttributes, key)) {
        const attribute = modelAttributes[key];
        if (key === 'id' || attributes.isStrapiScalar(attribute)) result[key] = replaceOperators(value);
        else if (attributes.isRelation(attribute) || attributes.isMedia(attribute)) result[key] = toQuery(value, modelOf(app, attribute?.target));
        else if (attributes.isComponent(attribute)) result[key] = toQuery(value, modelOf(app, attribute?.component));
      } else {
        const operator = rootOperators.find((candidate) => candidate.fieldName === key);
        if (operator) result[operator.strapiOperator] = toQuery(value, model);
      }
    }
    return result;
  };
  return toQuery;
}

function modelOf(app: App, uid: unknown): AnyModel | undefined {
  return typeof uid === 'string' ? (app.getModel(uid) as AnyModel | undefined) : undefined;
}

export function utilsService(app: App): GraphqlUtils {
  const attributes = attributeHelpers();
  const operators = filterOperators();
  const toQuery = filtersToQuery(app, operators, attributes);
  return {
    naming: namingUtils(),
    attributes,
    mappers: {
      strapiScalarToGraphQLScalar: (strapiScalar: string) => SCALARS_ASSOCIATIONS[strapiScalar],
      graphQLFiltersToStrapiQuery: (filters: unknown, contentType: AnyModel) => toQuery(filters, contentType),
      graphqlScalarToOperators: (graphqlScalar: string) => (GRAPHQL_SCALARS.includes(graphqlScalar) ? ALL_OPERATORS.map((name) => operators[name]) : undefined),
      entityToResponseEntity: <T extends { id: unknown }>(entity: T) => ({ id: entity.id, attributes: entity }),
      entitiesToResponseEntities: <T extends { id: unknown }>(entities: T[]) => entities.map((entity) => ({ id: entity.id, attributes: entity })),
    },
  };
}

interface PaginationInputValue {
  page?: number | null;
  pageSize?: number | null;
  start?: number | null;
  limit?: number | null;
}

/**
 * `@strapi/utils`' `withDefaultPagination` as the graphql plugin calls it: page or offset pagination (not both)
 * → `{ start, limit }`, the default limit when neither is given, the maximum limit applied (-1: none).
 */
function defaultPagination(pagination: PaginationInputValue, defaultLimit: number, maxLimit: number): { start: number; limit: number } {
  const given = (value: number | null | undefined): value is number => value !== undefined && value !== null;
  const byPage = given(pagination.page) || given(pagination.pageSize);
  const byOffset = given(pagination.start) || given(pagination.limit);
  if (byPage && byOffset) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  let start = 0;
  let limit = defaultLimit;
  if (byOffset) {
    start = given(pagination.start) ? pagination.start : 0;
    limit = given(pagination.limit) ? pagination.limit : defaultLimit;
  } else if (byPage) {
    const page = given(pagination.page) ? pagination.page : 1;
    // Strapi's: a page without a pageSize is a page of one.
    const pageSize = Math.max(1, given(pagination.pageSize) ? pagination.pageSize : 0);
    start = (page - 1) * pageSize;
    limit = pageSize;
  }
  start = Math.max(start, 0);
  limit = limit === -1 ? limit : Math.max(limit, 1);
  if (maxLimit !== -1 && (limit === -1 || limit > maxLimit)) limit = maxLimit;
  return { start, limit };
}

export function buildersService(app: App): GraphqlBuilders {
  const utils = utilsService(app);
  const { args } = internalsService();
  return {
    filters: { operators: filterOperators() },
    utils: {
      /** The arguments a content type's generated queries take (`multiple`: its collection query). */
      getContentTypeArgs(contentType: AnyModel, { multiple = true }: { multiple?: boolean } = {}): ContentTypeArgs {
        const draftAndPublish = contentType.options?.draftAndPublish === true;
        const list = () => ({ filters: utils.naming.getFiltersInputTypeName(contentType), pagination: args.PaginationArg, sort: args.SortArg });
        if (contentType.modelType === 'component') return multiple ? list() : {};
        if (contentType.kind === 'singleType') return draftAndPublish ? { publicationState: args.PublicationStateArg } : {};
        if (!multiple) return { id: 'ID' };
        return draftAndPublish ? { ...list(), publicationState: args.PublicationStateArg } : list();
      },
      /** GraphQL arguments → the entity service's: `pagination` → `start`/`limit` (with `usePagination`), filters mapped. */
      transformArgs(input: Record<string, unknown>, { contentType, usePagination = false }: { contentType: AnyModel; usePagination?: boolean }) {
        const { pagination, filters, ...rest } = input;
        const result: Record<string, unknown> = { ...rest };
        if (usePagination) {
          const config = readConfig(app);
          Object.assign(result, defaultPagination((pagination ?? {}) as PaginationInputValue, config.defaultLimit, config.maxLimit ?? config.amountLimit));
        }
        if (filters) result.filters = utils.mappers.graphQLFiltersToStrapiQuery(filters, contentType);
        return result;
      },
    },
  };
}

/**
 * Types every generated schema has: pagination in and out, the publication
 * state, the `Error` member of dynamic-zone unions, and one filter input per
 * scalar with every operator of the content API.
 */
import { enumType, inputObjectType, objectType } from 'nexus';
import type { NexusInputObjectTypeDef } from 'nexus/dist/core';

export const PublicationState = enumType({
  name: 'PublicationState',
  members: [
    { name: 'LIVE', value: 'live' },
    { name: 'PREVIEW', value: 'preview' },
  ],
});

export const PaginationArg = inputObjectType({
  name: 'PaginationArg',
  definition(t) {
    t.int('page');
    t.int('pageSize');
    t.int('start');
    t.int('limit');
  },
});

export const Pagination = objectType({
  name: 'Pagination',
  definition(t) {
    t.nonNull.int('total');
    t.nonNull.int('page');
    t.nonNull.int('pageSize');
    t.nonNull.int('pageCount');
  },
});

export const ResponseCollectionMeta = objectType({
  name: 'ResponseCollectionMeta',
  definition(t) {
    t.nonNull.field('pagination', { type: 'Pagination' });
  },
});

/** A dynamic-zone member whose component has no type (removed from the model). */
export const ErrorType = objectType({
  name: 'Error',
  definition(t) {
    t.nonNull.string('code');
    t.string('message');
  },
});

/** The content API's operators, without their `$`. `and`/`or` take lists of values, `not` a nested filter. */
const VALUE_OPERATORS = ['eq', 'eqi', 'ne', 'nei', 'lt', 'lte', 'gt', 'gte', 'contains', 'notContains', 'containsi', 'notContainsi', 'startsWith', 'endsWith'];
const LIST_OPERATORS = ['and', 'or', 'in', 'notIn', 'between'];
export const FILTER_OPERATORS = [...VALUE_OPERATORS, ...LIST_OPERATORS, 'null', 'notNull', 'not'];

/** GraphQL scalar → the name of its filter input. */
export const SCALAR_FILTERS: Record<string, string> = {
  String: 'StringFilterInput',
  Int: 'IntFilterInput',
  Long: 'LongFilterInput',
  Float: 'FloatFilterInput',
  Boolean: 'BooleanFilterInput',
  DateTime: 'DateTimeFilterInput',
  Date: 'DateFilterInput',
  Time: 'TimeFilterInput',
  JSON: 'JSONFilterInput',
  ID: 'IDFilterInput',
};

function scalarFilter(scalar: string, name: string): NexusInputObjectTypeDef<string> {
  return inputObjectType({
    name,
    definition(t) {
      for (const operator of VALUE_OPERATORS) t.field(operator, { type: scalar });
      for (const operator of LIST_OPERATORS) t.list.field(operator, { type: scalar });
      t.boolean('null');
      t.boolean('notNull');
      t.field('not', { type: name });
    },
  });
}

export const SCALAR_FILTER_TYPES = Object.entries(SCALAR_FILTERS).map(([scalar, name]) => scalarFilter(scalar, name));

export const SHARED_TYPES = [PublicationState, PaginationArg, Pagination, ResponseCollectionMeta, ErrorType, ...SCALAR_FILTER_TYPES];

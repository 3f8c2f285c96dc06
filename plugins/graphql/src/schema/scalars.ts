/**
 * The scalars of Strapi v4's schema: JSON, DateTime, Date, Time, Long and
 * Upload. Values are checked on input, so a bad date is a GraphQL input
 * error naming the argument, never a database error.
 */
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { scalarType } from 'nexus';
import { GraphqlUpload } from '../upload';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

export function literalValue(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((item) => literalValue(item, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((field) => [field.name.value, literalValue(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}

function stringLiteral(ast: ValueNode, name: string): string {
  if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} cannot represent a non-string value`);
  return ast.value;
}

export const JSONScalar = scalarType({
  name: 'JSON',
  description: 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables),
});

function toIsoDateTime(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  throw new GraphQLError(`DateTime cannot represent an invalid date-time: ${String(value).slice(0, 50)}`);
}

export const DateTimeScalar = scalarType({
  name: 'DateTime',
  description:
    'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  serialize: (value) => toIsoDateTime(value),
  parseValue: (value) => toIsoDateTime(value),
  parseLiteral: (ast) => toIsoDateTime(stringLiteral(ast, 'DateTime')),
});

function toDate(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value))) return value;
  throw new GraphQLError(`Date cannot represent an invalid date: ${String(value).slice(0, 50)}`);
}

export const DateScalar = scalarType({
  name: 'Date',
  description:
    'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  serialize: (value) => toDate(value),
  parseValue: (value) => toDate(value),
  parseLiteral: (ast) => toDate(stringLiteral(ast, 'Date')),
});

function toTime(value: unknown): string {
  if (typeof value === 'string' && TIME.test(value)) return value;
  throw new GraphQLError(`Time cannot represent an invalid time: ${String(value).slice(0, 50)}`);
}

export const TimeScalar = scalarType({
  name: 'Time',
  description: 'A time string with format HH:mm:ss.SSS',
  serialize: (value) => toTime(value),
  parseValue: (value) => toTime(value),
  parseLiteral: (ast) => toTime(stringLiteral(ast, 'Time')),
});

/** 64-bit integers travel as strings beyond 2^53 (Strapi's Long). */
function toLong(value: unknown): string | number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  throw new GraphQLError(`Long cannot represent a non-integer value: ${String(value).slice(0, 50)}`);
}

export const LongScalar = scalarType({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize: (value) => toLong(value),
  parseValue: (value) => toLong(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING) throw new GraphQLError('Long cannot represent a non-integer value');
    return toLong(ast.value);
  },
});

/**
 * A file of a multipart request (http/multipart.ts puts it in the
 * variables). Nothing else passes: a JSON value naming a path on the server
 * must never reach a resolver as if it were an uploaded file.
 */
export const UploadScalar = scalarType({
  name: 'Upload',
  description: 'The `Upload` scalar type represents a file upload.',
  serialize: () => {
    throw new GraphQLError('Upload serialization unsupported.');
  },
  parseValue: (value) => {
    if (value instanceof GraphqlUpload) return value;
    throw new GraphQLError('Upload value invalid: send the file as a part of a multipart request (GraphQL multipart request spec)');
  },
  parseLiteral: () => {
    throw new GraphQLError('Upload literal unsupported.');
  },
});

export const SCALARS = [JSONScalar, DateTimeScalar, DateScalar, TimeScalar, LongScalar, UploadScalar];

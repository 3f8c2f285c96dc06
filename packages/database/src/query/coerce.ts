/**
 * Filter values arrive as strings (query string) or JSON values (bodies,
 * GraphQL). Coerce them to the attribute's type, or reject with a 400 that
 * names the attribute — a value that cannot match the type is a client error,
 * not something to hand to the database.
 */
import type { ColumnField } from '../metadata/metadata';
import { invalidParameter } from './compile-context';
import { isStorableYear, normalizeTime, toDate } from './codec';

const INTEGER = /^-?\d+$/;
/**
 * Each character has one place to go: digits, then a fraction only after a
 * dot. (`\d+\.?\d*` could split a digit run anywhere, so `111…1x` backtracked
 * quadratically: 10,000 characters blocked the event loop for 150 ms.)
 */
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?$/;
/** Column ranges: a value beyond them is a database error on Postgres, so it is a 400 on both databases. */
const INT32 = { min: -2147483648, max: 2147483647 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const MAX_STRING = 10_000;
const TEXT_OPERATORS: ReadonlySet<string> = new Set([
  '$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);

/**
 * Can a filter compare with this text? The compiler refuses a NUL byte and more than MAX_STRING characters with a
 * 400, so a lookup by such a value (a login identifier, say) is answered "no match" before it is compiled.
 */
export function isFilterableText(text: string): boolean {
  return text.length <= MAX_STRING && !text.includes('\u0000');
}

export function coerceFilterValue(field: ColumnField, raw: unknown, operator: string): unknown {
  if (raw === null) return null;
  if (raw instanceof Date && (field.type === 'datetime' || field.type === 'timestamp')) return raw;
  if (typeof raw === 'string' && raw.includes('\u0000')) throw invalidParameter(field.name, 'contains a NUL byte');
  if (typeof raw === 'object' || typeof raw === 'function' || raw === undefined) throw invalidParameter(operator);
  const text = String(raw);
  if (text.length > MAX_STRING) throw invalidParameter(field.name, 'value too long');
  // Text operators match a fragment of the value's text form (`$contains: '.5'`), never a typed value.
  if (TEXT_OPERATORS.has(operator)) return text;
  switch (field.type) {
    case 'increments':
    case 'integer':
      return requireMatch(field, text, INTEGER, 'an integer', () => safeInteger(field, text));
    case 'biginteger':
      return requireMatch(field, text, INTEGER, 'an integer', () => bigInteger(field, text));
    case 'float':
    case 'decimal':
      return requireMatch(field, text, NUMBER, 'a number', () => Number(text));
    case 'boolean':
      return coerceBoolean(field, raw);
    case 'date':
      return coerceDate(field, text);
    case 'time':
      return requireMatch(field, text, TIME, 'a time (HH:mm:ss)', () => normalizeTime(text));
    case 'datetime':
    case 'timestamp':
      return coerceDateTime(field, text);
    case 'json':
      throw invalidParameter(operator, `not available on json attribute ${field.name}`);
    default:
      return text;
  }
}

/**
 * Entry ids live in `increments` columns (int4 on PostgreSQL, as Strapi creates them): an id beyond that range
 * names no entry, and binding one is a database error there, so readers and writers by id answer "no such row".
 */
export function isStorableId(id: number): boolean {
  return Number.isInteger(id) && id >= INT32.min && id <= INT32.max;
}

function requireMatch(field: ColumnField, text: string, pattern: RegExp, expected: string, convert: () => unknown): unknown {
  if (!pattern.test(text.trim())) throw invalidParameter(field.name, `expected ${expected}, got "${text.slice(0, 50)}"`);
  return convert();
}

function safeInteger(field: ColumnField, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < INT32.min || value > INT32.max) throw invalidParameter(field.name, 'integer out of range');
  return value;
}

function bigInteger(field: ColumnField, text: string): string {
  const value = BigInt(text.trim());
  if (value < INT64.min || value > INT64.max) throw invalidParameter(field.name, 'integer out of range');
  return text;
}

function coerceBoolean(field: ColumnField, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  const text = String(raw).toLowerCase();
  if (text === 'true' || text === 't' || text === '1') return true;
  if (text === 'false' || text === 'f' || text === '0') return false;
  throw invalidParameter(field.name, `expected a boolean, got "${String(raw).slice(0, 50)}"`);
}

function coerceDate(field: ColumnField, text: string): string {
  const date = DATE.test(text) ? new Date(`${text}T00:00:00Z`) : toDate(text);
  // A calendar date that does not exist (2023-02-29) must not reach the database either.
  const valid = !Number.isNaN(date.getTime()) && isStorableYear(date) && (!DATE.test(text) || date.toISOString().startsWith(text));
  if (!valid) throw invalidParameter(field.name, `expected a date (YYYY-MM-DD), got "${text.slice(0, 50)}"`);
  return DATE.test(text) ? text : date.toISOString().slice(0, 10);
}

function coerceDateTime(field: ColumnField, text: string): Date {
  const date = /^-?\d+$/.test(text) ? new Date(Number(text)) : toDate(text);
  if (Number.isNaN(date.getTime()) || !isStorableYear(date)) throw invalidParameter(field.name, `expected a date-time, got "${text.slice(0, 50)}"`);
  return date;
}

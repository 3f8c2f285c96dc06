/**
 * The few yup 0.32 rules Strapi's configuration schema is made of, with yup's messages and yup's order, for
 * configuration-schema.ts. Validation is strict (no casting) and does not stop at the first error. A field's type
 * error and `oneOf` refusal come together and alone; its other tests follow in the order they are declared.
 *
 * The order of errors is yup's, which is when each check finishes: yup runs every test as a promise, a schema's
 * type checks one tick, its other tests the next, an object's or array's fields after its own, so a shallow error
 * is reported before a deep one. Each check therefore returns the tick it finishes at; an object orders its
 * fields' errors by yup's `sortByKeyOrder` (the first declared key whose name appears in the error's path), then
 * by that tick, and puts its own `noUnknown` refusal last; an array orders its items by tick.
 */
import { printValue } from '@tessera/errors';
import { isPlainObject } from './configuration';

export interface CheckResult {
  errors: string[];
  /** The tick the check finished at. */
  time: number;
}

export type Check = (path: string, value: unknown, start: number) => CheckResult;

export const childPath = (parent: string | undefined, key: string) => (parent ? `${parent}.${key}` : key);
const label = (path: string | undefined) => path ?? 'this';

export function typeError(path: string | undefined, type: string, value: unknown): string {
  return `${label(path)} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

export const oneOf = (path: string, values: string[]) => `${path} must be one of the following values: ${[...new Set(values)].join(', ')}`;

/** yup's two phases for a scalar: type (and `oneOf`) first; the tests a tick later, only when the first passed. */
function scalar(start: number, initial: string[], tests: string[], hasTests: boolean): CheckResult {
  if (initial.length > 0) return { errors: initial, time: start + 1 };
  return { errors: tests, time: start + (hasTests ? 2 : 1) };
}

/** A string (one of `values` when given; `required`, a custom `test`): undefined passes all but `required`. */
export function checkString(path: string, value: unknown, start: number, rules: { values?: string[]; required?: boolean; test?: (value: unknown) => string | undefined } = {}): CheckResult {
  const initial: string[] = [];
  if (value !== undefined && typeof value !== 'string') initial.push(typeError(path, 'string', value));
  if (rules.values && value !== undefined && !rules.values.includes(value as string)) initial.push(oneOf(path, rules.values));
  const tests: string[] = [];
  const custom = rules.test?.(value);
  if (custom) tests.push(custom);
  if (rules.required && (value === undefined || value === '')) tests.push(`${path} is a required field`);
  return scalar(start, initial, tests, rules.required === true || rules.test !== undefined);
}

export function checkBoolean(path: string, value: unknown, start: number, required = false): CheckResult {
  const initial = value !== undefined && typeof value !== 'boolean' ? [typeError(path, 'boolean', value)] : [];
  return scalar(start, initial, required && value === undefined ? [`${path} is a required field`] : [], required);
}

export interface NumberRules {
  integer?: boolean;
  min?: number;
  max?: number;
  positive?: boolean;
  required?: boolean;
}

export function checkNumber(path: string, value: unknown, start: number, rules: NumberRules): CheckResult {
  if (value !== undefined && (typeof value !== 'number' || Number.isNaN(value))) return scalar(start, [typeError(path, 'number', value)], [], true);
  const tests: string[] = [];
  if (typeof value === 'number') {
    if (rules.integer && !Number.isInteger(value)) tests.push(`${path} must be an integer`);
    if (rules.min !== undefined && value < rules.min) tests.push(`${path} must be greater than or equal to ${rules.min}`);
    if (rules.max !== undefined && value > rules.max) tests.push(`${path} must be less than or equal to ${rules.max}`);
    if (rules.positive && !(value > 0)) tests.push(`${path} must be a positive number`);
  } else if (rules.required) tests.push(`${path} is a required field`);
  return scalar(start, [], tests, true);
}

interface Finished extends CheckResult {
  path: string;
  order: number;
}

/** yup's `sortByKeyOrder`: the index of the first key contained in the error's path. */
function keyIndex(keys: string[], path: string): number {
  const index = keys.findIndex((key) => path.includes(key));
  return index === -1 ? Number.POSITIVE_INFINITY : index;
}

export interface ObjectRules {
  /** Declared keys, in order, with each one's check. */
  fields: Array<[string, Check]>;
  noUnknown?: boolean;
  required?: boolean;
  nullable?: boolean;
}

/** An object: its type, its own tests (`noUnknown`, `required`), then its fields. */
export function checkObject(path: string | undefined, value: unknown, start: number, rules: ObjectRules): CheckResult {
  if (value !== undefined && !(value === null && rules.nullable) && !isPlainObject(value)) return { errors: [typeError(path, 'object', value)], time: start + 1 };
  const ownTests = (rules.noUnknown ? 1 : 0) + (rules.required ? 1 : 0);
  const fieldsStart = start + (ownTests > 0 ? 2 : 1);
  const own: string[] = [];
  if (rules.required && value === undefined) own.push(`${label(path)} is a required field`);
  if (!isPlainObject(value)) return { errors: own, time: fieldsStart };
  if (rules.noUnknown) {
    const unknown = Object.keys(value).filter((key) => !rules.fields.some(([name]) => name === key));
    if (unknown.length > 0) own.push(`${label(path)} field has unspecified keys: ${unknown.join(', ')}`);
  }
  const keys = rules.fields.map(([key]) => key);
  const finished: Finished[] = rules.fields.map(([key, check], order) => ({ ...check(childPath(path, key), value[key], fieldsStart), path: childPath(path, key), order }));
  const failed = finished.filter((field) => field.errors.length > 0);
  failed.sort((a, b) => keyIndex(keys, a.path) - keyIndex(keys, b.path) || a.time - b.time || a.order - b.order);
  return { errors: [...failed.flatMap((field) => field.errors), ...own], time: Math.max(fieldsStart, ...finished.map((field) => field.time)) };
}

/** An array, each item checked; `mustBeGiven` is Strapi's `isArray` test ("is required and must be an array"). */
export function checkArray(path: string, value: unknown, start: number, item: Check, mustBeGiven = false): CheckResult {
  if (value !== undefined && !Array.isArray(value)) return { errors: [typeError(path, 'array', value)], time: start + 1 };
  const itemsStart = start + (mustBeGiven ? 2 : 1);
  if (!Array.isArray(value)) return { errors: mustBeGiven ? [`${path} is required and must be an array`] : [], time: itemsStart };
  const finished = value.map((element, order) => ({ ...item(`${path}[${order}]`, element, itemsStart), order }));
  const failed = finished.filter((element) => element.errors.length > 0).sort((a, b) => a.time - b.time || a.order - b.order);
  return { errors: failed.flatMap((element) => element.errors), time: Math.max(itemsStart, ...finished.map((element) => element.time)) };
}

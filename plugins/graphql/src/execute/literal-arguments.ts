/**
 * Arguments written in the document (no variable among them) coerce to the
 * same values on every request: graphql-js's getArgumentValues runs once per
 * field of a cached document, and each call gets its own copy, so a resolver
 * that changes its arguments changes nothing for the next request. Values
 * that are not plain data (a custom scalar's object) are coerced per call.
 */
import { getArgumentValues } from 'graphql';
import type { FieldPlan } from './operation-plan';

type Coerced = Record<string, unknown>;

/** Per planned field: its coerced arguments, or null when they are not plain data. */
const coercedOnce = new WeakMap<FieldPlan, Coerced | null>();

export function literalArguments(field: FieldPlan): Coerced {
  let coerced = coercedOnce.get(field);
  if (coerced === undefined) {
    // A coercion error is thrown as on every call (a field error), and nothing is kept.
    const values = getArgumentValues(field.definition, field.nodes[0], {});
    coerced = isPlainData(values) ? values : null;
    coercedOnce.set(field, coerced);
  }
  return coerced === null ? getArgumentValues(field.definition, field.nodes[0], {}) : (copy(coerced) as Coerced);
}

function isPlainData(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value === 'object' && value !== null) return isRecord(value) && Object.values(value).every(isPlainData);
  return typeof value !== 'function';
}

/** An object literal or a null-prototype object (graphql-js's input objects): nothing a resolver could tell apart from a copy. */
function isRecord(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    // A JSON literal may hold a `__proto__` key: an own property, as in the original.
    Object.defineProperty(result, key, { value: copy((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

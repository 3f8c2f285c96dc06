/**
 * Body checks for admin routes whose fields are not all strings (API tokens,
 * webhooks), answered as `@strapi/admin` 4.26.2's yup 0.32 schemas answer
 * them (strict, every error at once). yup checks a field in two rounds: first
 * its type and its list of allowed values (both reported when both fail);
 * only when those pass, its other tests in the order they are written
 * (`min`, `required`, `matches`…). An array's items are checked after the
 * array itself, each at `path[i]`. Unknown keys are refused last, at the
 * root, when the schema says `noUnknown`. (validation.ts covers the
 * string-only bodies of sign-in.)
 */
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';
import { isPlainObject } from './validation';

export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'string[]';

/** A test of the second round: a message, or null when the value passes. */
export type FieldTest = (value: unknown, name: string) => string | null;

export interface FieldRule {
  name: string;
  type: FieldType;
  nullable?: boolean;
  /** yup's `oneOf`, with the message Strapi's schema prints for it. */
  oneOf?: { values: readonly unknown[]; message: string };
  /** A `string[]` field's items' `oneOf` (yup's `array().of(string().oneOf(…))`), each item checked at `name[i]`. */
  itemsOneOf?: readonly string[];
  tests?: FieldTest[];
}

export interface BodyRules {
  fields: FieldRule[];
  noUnknown: boolean;
}

export const required: FieldTest = (value, name) => (value === undefined || value === null || value === '' ? `${name} is a required field` : null);
export const minItems =
  (count: number): FieldTest =>
  (value, name) =>
    Array.isArray(value) && value.length < count ? `${name} field must have at least ${count} items` : null;
export const minLength =
  (length: number): FieldTest =>
  (value, name) =>
    typeof value === 'string' && value.length < length ? `${name} must be at least ${length} characters` : null;

/** Checks `body` (a plain object) against the rules; a 400 with yup's issues when any fails. */
export function checkBody<T extends object = Record<string, unknown>>(body: unknown, rules: BodyRules): T {
  if (!isPlainObject(body)) throw ValidationError.fromIssues([issue([], `this must be a \`object\` type, but the final value was: \`${printValue(body)}\`.`)]);
  const issues: ValidationIssue[] = [];
  for (const rule of rules.fields) issues.push(...fieldIssues(rule, body[rule.name]));
  const names = rules.fields.map((rule) => rule.name);
  const unknown = Object.keys(body).filter((key) => !names.includes(key));
  if (rules.noUnknown && unknown.length > 0) issues.push(issue([], `this field has unspecified keys: ${unknown.join(', ')}`));
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  // The rules just checked what the caller's type says.
  return body as T;
}

function fieldIssues(rule: FieldRule, value: unknown): ValidationIssue[] {
  const path = [rule.name];
  const first: ValidationIssue[] = [];
  const absent = value === undefined || (value === null && rule.nullable === true);
  if (!absent && !hasType(value, rule.type)) first.push(issue(path, typeError(rule.name, rule.type, value)));
  if (rule.oneOf && !absent && !rule.oneOf.values.includes(value)) first.push(issue(path, rule.oneOf.message));
  if (first.length > 0) return first;
  const issues: ValidationIssue[] = [];
  for (const test of rule.tests ?? []) {
    const message = test(value, rule.name);
    if (message !== null) issues.push(issue(path, message));
  }
  if (rule.type === 'string[]' && Array.isArray(value)) {
    value.forEach((item, index) => {
      const itemPath = [rule.name, String(index)];
      if (typeof item !== 'string') issues.push(issue(itemPath, typeError(`${rule.name}[${index}]`, 'string', item)));
      if (rule.itemsOneOf && !rule.itemsOneOf.includes(item as string)) {
        issues.push(issue(itemPath, `${rule.name}[${index}] must be one of the following values: ${rule.itemsOneOf.join(', ')}`));
      }
    });
  }
  return issues;
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && !Number.isNaN(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'string[]':
      return Array.isArray(value);
  }
}

function typeError(path: string, type: FieldType, value: unknown): string {
  const shown = type === 'string[]' ? 'array' : type;
  return `${path} must be a \`${shown}\` type, but the final value was: \`${printValue(value)}\`.`;
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

/**
 * lodash's `trim` as Strapi's controllers apply it before validating: any value becomes a string first (null and
 * undefined the empty string, an array its items joined with commas, an object `[object Object]`).
 */
export function lodashTrim(value: unknown): string {
  return lodashString(value).trim();
}

function lodashString(value: unknown): string {
  return value === null || value === undefined ? '' : itemString(value);
}

/** Inside an array lodash prints null and undefined as words. */
function itemString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(itemString).join(',');
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return String(value);
}

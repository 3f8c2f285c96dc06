/**
 * The auth routes' body checks as Strapi 4.26.2 makes them: yup 0.32 object
 * schemas of required strings (controllers/validation/auth.js), validated
 * strict and without stopping at the first error. So the answer is yup's —
 * its messages (a non-string is "must be a `string` type, but the final value
 * was: `…`."), every failing field at once ("N errors occurred"), in yup's
 * order, and `noUnknown`'s refusal of extra keys — before any lookup.
 *
 * yup's order: fields are checked last-declared first, then the errors are
 * sorted (stably) by the first declared key their path *contains* — a
 * substring test, so `passwordConfirmation` ranks with `password` and comes
 * before it; an object-level error (no path) ranks last.
 */
import { isEmailAddress, MAX_EMAIL_LENGTH } from '@tessera/core';
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';

export interface FieldRule {
  name: string;
  email?: boolean;
  /** yup's `oneOf([ref(field)], message)`: checked before `required`, as yup's whitelist is. */
  sameAs?: { field: string; message: string };
}

export interface BodySchema {
  fields: FieldRule[];
  /** yup's `noUnknown()`: keys outside `fields` are refused. */
  noUnknown?: boolean;
}

/** The body's fields, all strings, or a 400 with yup's issues. A missing body is `{}`, as koa-body leaves it. */
export function validateBody<K extends string>(body: unknown, schema: BodySchema & { fields: Array<FieldRule & { name: K }> }): Record<K, string> {
  const value = body === undefined ? {} : body;
  if (!isPlainObject(value)) {
    throw ValidationError.fromIssues([issue([], `this must be a \`object\` type, but the final value was: \`${printValue(value)}\`.`)]);
  }
  const params = value as Record<string, unknown>;
  const fieldIssues: Array<{ rank: number; issue: ValidationIssue }> = [];
  const names = schema.fields.map((field) => field.name);
  for (const field of [...schema.fields].reverse()) {
    const message = fieldProblem(field, params);
    if (message === null) continue;
    const rank = names.findIndex((name) => field.name.includes(name));
    fieldIssues.push({ rank, issue: issue([field.name], message) });
  }
  fieldIssues.sort((a, b) => a.rank - b.rank);
  const issues = fieldIssues.map((entry) => entry.issue);
  if (schema.noUnknown) {
    const unknown = Object.keys(params).filter((key) => !names.includes(key));
    if (unknown.length > 0) issues.push(issue([], `this field has unspecified keys: ${unknown.join(', ')}`));
  }
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return params as Record<K, string>;
}

/** A plain object (not an array, a scalar or a class instance), as yup's and lodash's tests have it. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

function fieldProblem(field: FieldRule, params: Record<string, unknown>): string | null {
  const value = params[field.name];
  if (value !== undefined && typeof value !== 'string') {
    return `${field.name} must be a \`string\` type, but the final value was: \`${printValue(value)}\`.`;
  }
  if (field.sameAs && value !== undefined && value !== params[field.sameAs.field]) return field.sameAs.message;
  if (value === undefined || value === '') return `${field.name} is a required field`;
  if (!field.email) return null;
  // The kernel's linear test runs on a bounded length only; yup's pattern refuses NUL.
  if (value.length > MAX_EMAIL_LENGTH) return `${field.name} must be at most ${MAX_EMAIL_LENGTH} characters`;
  if (value.includes('\u0000') || !isEmailAddress(value)) return `${field.name} must be a valid email`;
  return null;
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

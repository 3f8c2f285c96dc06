/**
 * The admin routes' body checks as `@strapi/admin` 4.26.2 makes them: yup 0.32
 * object schemas validated strict and without stopping at the first error
 * (`validateYupSchema`). So the 400 is yup's: its messages, every failing
 * field at once ("N errors occurred") in the order the fields are declared,
 * a field's failed tests in the order they are written, a type error alone
 * for its field, and `noUnknown`'s refusal of extra keys last, at the root.
 * Strict means no transform runs: an email with capitals is refused ("must be
 * a lowercase string"), a first name with spaces around it too — except on
 * `PUT /admin/users/me`, which lowercases and trims before validating.
 */
import { isEmailAddress, MAX_EMAIL_LENGTH } from '@tessera/core';
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';

type Check = (value: string, path: string) => string | null;

export interface StringField {
  name: string;
  /** yup's `required()`: undefined, null and '' fail with "is a required field". */
  required?: boolean;
  /** yup's `nullable()`: null passes (else null is a type error, unless `required` says it first). */
  nullable?: boolean;
  /** Required when another field of the body is given (yup's `when`). */
  requiredWith?: string;
  /** yup's `.min(1).required()` order: an empty string fails the checks first, then "is a required field". */
  requiredLast?: boolean;
  checks?: Check[];
}

export interface BodySchema {
  fields: StringField[];
  /** yup's `noUnknown()`. */
  noUnknown: boolean;
}

const email: Check[] = [
  (value, path) => (value.length > MAX_EMAIL_LENGTH || value.includes('\u0000') || !isEmailAddress(value) ? `${path} must be a valid email` : null),
  (value, path) => (value !== value.toLowerCase() ? `${path} must be a lowercase string` : null),
];
const firstname: Check[] = [
  (value, path) => (value !== value.trim() ? `${path} must be a trimmed string` : null),
  (value, path) => (value.length < 1 ? `${path} must be at least 1 characters` : null),
];
const username: Check[] = [(value, path) => (value.length < 1 ? `${path} must be at least 1 characters` : null)];
/** Strapi's admin password rules (`validators.password`); bcrypt reads 72 bytes, Strapi does not bound it (neither do we: bcryptjs cuts). */
const password: Check[] = [
  (value, path) => (value.length < 8 ? `${path} must be at least 8 characters` : null),
  (value, path) => (/[a-z]/.test(value) ? null : `${path} must contain at least one lowercase character`),
  (value, path) => (/[A-Z]/.test(value) ? null : `${path} must contain at least one uppercase character`),
  (value, path) => (/\d/.test(value) ? null : `${path} must contain at least one number`),
];

/** `POST /admin/register-admin` (`adminRegistrationSchema`). */
export const REGISTER_ADMIN_BODY: BodySchema = {
  noUnknown: true,
  fields: [
    { name: 'email', required: true, checks: email },
    { name: 'firstname', required: true, checks: firstname },
    { name: 'lastname', nullable: true },
    { name: 'password', required: true, checks: password },
  ],
};

/** `POST /admin/renew-token`. */
export const RENEW_TOKEN_BODY: BodySchema = { noUnknown: true, fields: [{ name: 'token', required: true }] };

/** `PUT /admin/users/me` (`profileUpdateSchema`). */
export const PROFILE_UPDATE_BODY: BodySchema = {
  noUnknown: true,
  fields: [
    { name: 'email', checks: email },
    { name: 'firstname', checks: firstname },
    { name: 'lastname', nullable: true },
    { name: 'username', nullable: true, checks: username },
    { name: 'password', checks: password },
    { name: 'currentPassword', requiredWith: 'password' },
    { name: 'preferedLanguage', nullable: true },
  ],
};

/** The body's declared fields (strings or null), or a 400 with yup's issues. A missing body is `{}`. */
export function validateBody(body: unknown, schema: BodySchema): Record<string, string | null | undefined> {
  const value = body === undefined || body === null ? {} : body;
  if (!isPlainObject(value)) throw ValidationError.fromIssues([issue([], `this must be a \`object\` type, but the final value was: \`${printValue(value)}\`.`)]);
  const issues: ValidationIssue[] = [];
  for (const field of schema.fields) for (const message of fieldProblems(field, value)) issues.push(issue([field.name], message));
  const names = schema.fields.map((field) => field.name);
  const unknown = Object.keys(value).filter((key) => !names.includes(key));
  if (schema.noUnknown && unknown.length > 0) issues.push(issue([], `this field has unspecified keys: ${unknown.join(', ')}`));
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return Object.fromEntries(names.filter((name) => value[name] !== undefined).map((name) => [name, value[name] as string | null]));
}

function fieldProblems(field: StringField, body: Record<string, unknown>): string[] {
  const value = body[field.name];
  const required = field.required || (field.requiredWith !== undefined && body[field.requiredWith] !== undefined);
  if (required && field.requiredLast && value === '') return [...(field.checks ?? []).map((check) => check('', field.name)).filter((message): message is string => message !== null), `${field.name} is a required field`];
  if (required && (value === undefined || value === null || value === '')) return [`${field.name} is a required field`];
  if (value === undefined || (value === null && field.nullable)) return [];
  if (typeof value !== 'string') return [`${field.name} must be a \`string\` type, but the final value was: \`${printValue(value)}\`.`];
  return (field.checks ?? []).map((check) => check(value, field.name)).filter((message): message is string => message !== null);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

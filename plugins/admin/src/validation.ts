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

interface FieldBase {
  name: string;
  /** yup's `required()`: undefined, null and '' fail with "is a required field" ('' after the field's own checks). */
  required?: boolean;
  /** yup's `nullable()`: null passes (else null is a type error, unless `required` says it first). */
  nullable?: boolean;
  /** Required when another field of the body is given (yup's `when`). */
  requiredWith?: string;
  /** yup's `.min(1).required()` order: an empty string fails the checks first, then "is a required field" (every required string field here works so; kept for the schemas that say it). */
  requiredLast?: boolean;
}

export interface StringField extends FieldBase {
  kind?: 'string';
  checks?: Check[];
}

/** yup's `bool()`, strict: only true and false. */
export interface BooleanField extends FieldBase {
  kind: 'boolean';
}

/** yup's `array(yup.strapiID()).min(n)`: a string or a non-negative integer each. */
export interface IdsField extends FieldBase {
  kind: 'ids';
  min: number;
}

/** A nested object schema (`userInfo` of `POST /admin/register`). */
export interface ObjectField extends FieldBase {
  kind: 'object';
  schema: BodySchema<unknown>;
}

export type Field = StringField | BooleanField | IdsField | ObjectField;

/** A schema; `T` is the shape a body that passes it has (what `validateShape` answers). */
export interface BodySchema<T = Validated> {
  fields: Field[];
  /** yup's `noUnknown()`. */
  noUnknown: boolean;
  /** Never set: carries `T`. */
  readonly shape?: T;
}

/** What a validated field holds. */
export type FieldValue = string | boolean | null | Array<string | number> | { [key: string]: FieldValue };
export type Validated = Record<string, FieldValue | undefined>;

const email: Check[] = [
  (value, path) => (value !== '' && (value.length > MAX_EMAIL_LENGTH || value.includes('\u0000') || !isEmailAddress(value)) ? `${path} must be a valid email` : null),
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

/** `POST /admin/users` (`userCreationSchema`): roles are not required by Strapi's schema, only at least one when given. */
export interface UserCreation {
  email: string;
  firstname: string;
  lastname?: string;
  roles?: Array<string | number>;
  preferedLanguage?: string | null;
}

export const USER_CREATION_BODY: BodySchema<UserCreation> = {
  noUnknown: true,
  fields: [
    { name: 'email', required: true, checks: email },
    { name: 'firstname', required: true, checks: firstname },
    { name: 'lastname' },
    { name: 'roles', kind: 'ids', min: 1 },
    { name: 'preferedLanguage', nullable: true },
  ],
};

/** `PUT /admin/users/:id` (`userUpdateSchema`), after the same normalising as the profile's. */
export interface UserUpdate {
  email?: string;
  firstname?: string;
  lastname?: string | null;
  username?: string | null;
  password?: string;
  isActive?: boolean;
  roles?: Array<string | number>;
}

export const USER_UPDATE_BODY: BodySchema<UserUpdate> = {
  noUnknown: true,
  fields: [
    { name: 'email', checks: email },
    { name: 'firstname', checks: firstname },
    { name: 'lastname', nullable: true },
    { name: 'username', nullable: true, checks: username },
    { name: 'password', checks: password },
    { name: 'isActive', kind: 'boolean' },
    { name: 'roles', kind: 'ids', min: 1 },
  ],
};

/** `POST /admin/users/batch-delete` (`usersDeleteSchema`). */
export const USERS_DELETE_BODY: BodySchema<{ ids: Array<string | number> }> = { noUnknown: true, fields: [{ name: 'ids', kind: 'ids', min: 1, required: true }] };

/** `GET /admin/registration-info`'s query (`registrationInfoQuerySchema`). */
export const REGISTRATION_INFO_QUERY: BodySchema<{ registrationToken: string }> = { noUnknown: true, fields: [{ name: 'registrationToken', required: true }] };

/** `POST /admin/register` (`registrationSchema`): an invited user's token and what they set. */
export interface Registration {
  registrationToken: string;
  userInfo: { firstname: string; lastname?: string | null; password: string };
}

export const REGISTRATION_BODY: BodySchema<Registration> = {
  noUnknown: true,
  fields: [
    { name: 'registrationToken', required: true },
    {
      name: 'userInfo',
      kind: 'object',
      required: true,
      schema: {
        noUnknown: true,
        fields: [
          { name: 'firstname', required: true, checks: firstname },
          { name: 'lastname', nullable: true },
          { name: 'password', required: true, checks: password },
        ],
      },
    },
  ],
};

/** `POST /admin/forgot-password` (`forgotPasswordSchema`). */
export const FORGOT_PASSWORD_BODY: BodySchema<{ email: string }> = { noUnknown: true, fields: [{ name: 'email', required: true, checks: email }] };

/** `POST /admin/reset-password` (`resetPasswordSchema`). */
export const RESET_PASSWORD_BODY: BodySchema<{ resetPasswordToken: string; password: string }> = {
  noUnknown: true,
  fields: [
    { name: 'resetPasswordToken', required: true },
    { name: 'password', required: true, checks: password },
  ],
};

/** Strapi's `normalizeUpdateInput` (profile and user updates): the email lowercased, the first name trimmed, before validating. */
export function normalizeUpdate(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  const data = { ...body };
  if (typeof data.email === 'string') data.email = data.email.toLowerCase();
  if (typeof data.firstname === 'string') data.firstname = data.firstname.trim();
  return data;
}

/** The body's declared string fields, or a 400 with yup's issues. A missing body is `{}`. */
export function validateBody(body: unknown, schema: BodySchema): Record<string, string | null | undefined> {
  return validateShape(body, schema as BodySchema<Record<string, string | null | undefined>>);
}

/** The body's declared fields (any kind), typed as the schema says, or a 400 with yup's issues. A missing body is `{}`. */
export function validateShape<T>(body: unknown, schema: BodySchema<T>): T {
  const value = body === undefined || body === null ? {} : body;
  if (!isPlainObject(value)) throw ValidationError.fromIssues([issue([], `this must be a \`object\` type, but the final value was: \`${printValue(value)}\`.`)]);
  const issues = objectIssues(value, schema, []);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  const names = schema.fields.map((field) => field.name);
  // The checks above are the schema's: what passed them has its shape.
  return Object.fromEntries(names.filter((name) => value[name] !== undefined).map((name) => [name, value[name]])) as T;
}

/** yup's order: each field's issues in declaration order, then `noUnknown`'s refusal of the object's extra keys. */
function objectIssues(value: Record<string, unknown>, schema: BodySchema<unknown>, at: string[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of schema.fields) issues.push(...fieldIssues(field, value, [...at, field.name]));
  const names = schema.fields.map((field) => field.name);
  const unknown = Object.keys(value).filter((key) => !names.includes(key));
  if (schema.noUnknown && unknown.length > 0) issues.push(issue(at, `${at.length === 0 ? 'this' : label(at)} field has unspecified keys: ${unknown.join(', ')}`));
  return issues;
}

/** yup's printed path: `userInfo.firstname`, `roles[0]`. */
function label(path: string[]): string {
  return path.map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

function fieldIssues(field: Field, body: Record<string, unknown>, path: string[]): ValidationIssue[] {
  const name = label(path);
  const value = body[field.name];
  const required = field.required || (field.requiredWith !== undefined && body[field.requiredWith] !== undefined);
  if (required && (value === undefined || value === null)) return [issue(path, `${name} is a required field`)];
  if (value === undefined || (value === null && field.nullable)) return [];
  const typeError = (type: string) => [issue(path, `${name} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`)];
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? [] : typeError('boolean');
    case 'object':
      return isPlainObject(value) ? objectIssues(value, field.schema, path) : typeError('object');
    case 'ids': {
      if (!Array.isArray(value)) return typeError('array');
      const problems = value.flatMap((item, index) =>
        isStrapiId(item) ? [] : [issue([...path, String(index)], `${label([...path, String(index)])} must be a \`strapiID\` type, but the final value was: \`${printValue(item)}\`.`)],
      );
      if (value.length < field.min) problems.push(issue(path, `${name} field must have at least ${field.min} items`));
      return problems;
    }
    default: {
      if (typeof value !== 'string') return typeError('string');
      const problems = (field.checks ?? []).map((check) => check(value, name)).filter((message): message is string => message !== null).map((message) => issue(path, message));
      if (required && value === '') problems.push(issue(path, `${name} is a required field`));
      return problems;
    }
  }
}

/** `yup.strapiID()`: any string, or an integer from 0. */
export function isStrapiId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

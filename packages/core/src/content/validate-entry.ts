/**
 * Entry validation: a checker per content type, built once at boot from its
 * attributes. It casts what JSON cannot express (dates) and rejects
 * everything else that does not fit, collecting every problem into one 400
 * ValidationError (`details.errors: [{ path, message, name }]`).
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import type { ColumnField, EntityMetadata, ScalarAttribute } from '@tessera/database';
import { isStorableYear, normalizeTime, toDate } from '@tessera/database';
import { isEmailAddress } from './email-address';

export type WriteMode = 'create' | 'update';

/**
 * What a key that is no attribute does: `refuse` makes it a 400 (the content API, at every depth, as Strapi 4.26's
 * input validation does); `drop` leaves it out (server code and the content manager: Strapi's entity service
 * validates attributes only and its query engine writes nothing else, so the panel's `__temp_key__` on each
 * repeatable component and dynamic-zone block is dropped).
 */
export type UnknownKeys = 'refuse' | 'drop';

export interface EntryValidator {
  /**
   * Returns the cleaned values (system fields dropped, defaults filled on create).
   * A `draft` may lack required values (Strapi v4's draft & publish); every other rule applies.
   */
  (data: unknown, mode: WriteMode, draft?: boolean, unknownKeys?: UnknownKeys): Record<string, unknown>;
}

type Check = (value: unknown, path: string[]) => { value?: unknown; issue?: string };
type Checks = Map<string, { field: ColumnField; check: Check }>;

const SYSTEM_FIELDS = new Set(['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
const UID = /^[A-Za-z0-9-_.~]*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d)(\.\d{1,6})?)?$/;
const INT32 = { min: -2147483648, max: 2147483647 };
/** Types stored in varchar(255): longer values would be a database error (a 500 on Postgres). */
const VARCHAR_TYPES = new Set(['string', 'email', 'password', 'uid']);
const VARCHAR_LENGTH = 255;
/**
 * The longest value a schema's `regex` is run on. Patterns that can backtrack are refused at boot
 * (loader/pattern-safety.ts); this bounds the work of any the checker could not decide.
 */
export const MAX_PATTERN_INPUT = 10_000;

export function buildEntryValidator(entity: EntityMetadata): EntryValidator {
  const entryChecks = buildChecks(entity, false);
  const draftChecks = buildChecks(entity, true);
  const links = new Set(entity.links.keys());

  return (data, mode, draft = false, unknownKeys = 'refuse') => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw ValidationError.forField([], 'data must be an object');
    }
    const checks = draft ? draftChecks : entryChecks;
    const issues: ValidationIssue[] = [];
    const clean: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
      if (SYSTEM_FIELDS.has(name)) continue;
      if (links.has(name)) {
        clean[name] = value;
        continue;
      }
      const entry = checks.get(name);
      if (!entry) {
        if (unknownKeys === 'refuse') issues.push(issue([name], `Invalid key ${name}`));
        continue;
      }
      if (value === undefined) continue;
      if (value === null) {
        if (entry.field.attribute.required) issues.push(issue([name], `${name} must be defined.`));
        else clean[name] = null;
        continue;
      }
      const result = entry.check(value, [name]);
      if (result.issue) issues.push(issue([name], result.issue));
      else clean[name] = result.value;
    }
    if (mode === 'create') fillDefaultsAndRequired(checks, data as Record<string, unknown>, clean, issues);
    if (issues.length > 0) throw ValidationError.fromIssues(issues);
    return clean;
  };
}

/** Checks per column attribute, built at boot; a draft's are those of its attributes without `required`. */
function buildChecks(entity: EntityMetadata, draft: boolean): Checks {
  const checks: Checks = new Map();
  for (const entityField of entity.columns.values()) {
    if (entityField.system && entityField.name !== 'publishedAt') continue;
    const field = draft && entityField.attribute.required ? { ...entityField, attribute: { ...entityField.attribute, required: false } } : entityField;
    checks.set(field.name, { field, check: checkFor(field.name, field.type === 'increments' ? { type: 'integer' } : field.attribute) });
  }
  return checks;
}

function fillDefaultsAndRequired(
  checks: Checks,
  given: Record<string, unknown>,
  clean: Record<string, unknown>,
  issues: ValidationIssue[],
): void {
  for (const [name, { field }] of checks) {
    // A value that was given (even an invalid one, already reported) is not missing.
    if (name in clean || given[name] !== undefined) continue;
    if (field.attribute.default !== undefined) clean[name] = field.attribute.default;
    else if (field.attribute.required) issues.push(issue([name], `${name} must be defined.`));
  }
  // Required fields reported in schema order, before type errors, like Strapi.
  issues.sort((a, b) => Number(b.message.endsWith('must be defined.')) - Number(a.message.endsWith('must be defined.')));
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

function checkFor(name: string, attribute: ScalarAttribute): Check {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return stringCheck(name, attribute);
    case 'email':
      return withTest(stringCheck(name, attribute), isEmailAddress, `${name} must be a valid email`);
    case 'uid':
      return withTest(stringCheck(name, attribute), (text) => UID.test(text), `${name} must match the following: "/^[A-Za-z0-9-_.~]*$/"`);
    case 'enumeration':
      return enumCheck(name, attribute);
    case 'integer':
      return numberCheck(name, attribute, 'integer');
    case 'biginteger':
      return bigIntegerCheck(name, attribute);
    case 'float':
      return numberCheck(name, attribute, 'number');
    case 'decimal':
      return decimalCheck(name, attribute);
    case 'boolean':
      return booleanCheck(name);
    case 'date':
      return dateCheck(name);
    case 'time':
      return timeCheck(name);
    case 'datetime':
    case 'timestamp':
      return dateTimeCheck(name);
    case 'json':
      return jsonCheck(name);
  }
}

/** decimal columns are numeric(10,2): anything beyond 8 integer digits would be a database error (a 500). */
const DECIMAL_LIMIT = 1e8;

function decimalCheck(name: string, attribute: ScalarAttribute): Check {
  const base = numberCheck(name, attribute, 'number');
  return (value, path) => {
    const result = base(value, path);
    if (result.issue) return result;
    if (Math.abs(result.value as number) >= DECIMAL_LIMIT) return { issue: `${name} must be between -99999999.99 and 99999999.99` };
    return result;
  };
}

/** Deeper JSON overflows the stack when serialised for the database (a 500); Postgres jsonb has a similar limit. */
const MAX_JSON_DEPTH = 1000;

/** Postgres jsonb refuses U+0000 and unpaired surrogates (`"\ud800"`) in strings; refuse them on every database alike. */
function jsonCheck(name: string): Check {
  return (value) => {
    const problem = jsonProblem(value);
    if (problem === 'nul') return { issue: `${name} must not contain NUL characters` };
    if (problem === 'surrogate') return { issue: `${name} must not contain unpaired UTF-16 surrogates` };
    if (problem === 'depth') return { issue: `${name} must not be nested more than ${MAX_JSON_DEPTH} levels deep` };
    return { value };
  };
}

/**
 * A string (value or key) holding U+0000 or an unpaired surrogate, or nesting beyond MAX_JSON_DEPTH.
 * Iterative and without argument spreading, so neither deep nor wide values can overflow the stack.
 */
function jsonProblem(value: unknown): 'nul' | 'surrogate' | 'depth' | null {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current === 'string') {
      const problem = stringProblem(current);
      if (problem) return problem;
    } else if (typeof current === 'object' && current !== null) {
      if (depth >= MAX_JSON_DEPTH) return 'depth';
      for (const [key, child] of Object.entries(current)) {
        const problem = stringProblem(key);
        if (problem) return problem;
        if (typeof child === 'object' || typeof child === 'string') pending.push([child, depth + 1]);
      }
    }
  }
  return null;
}

function stringProblem(text: string): 'nul' | 'surrogate' | null {
  if (text.includes('\u0000')) return 'nul';
  return hasUnpairedSurrogate(text) ? 'surrogate' : null;
}

/** String.prototype.isWellFormed's test (ES2024, beyond this build's lib), in one pass. */
function hasUnpairedSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code > 0xdbff) return true;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
    i++;
  }
  return false;
}

function stringCheck(name: string, attribute: ScalarAttribute): Check {
  const regex = attribute.regex ? new RegExp(attribute.regex) : undefined;
  const maxLength = VARCHAR_TYPES.has(attribute.type) ? Math.min(attribute.maxLength ?? VARCHAR_LENGTH, VARCHAR_LENGTH) : attribute.maxLength;
  return (value) => {
    if (typeof value !== 'string') return { issue: `${name} must be a \`string\` type, but the final value was: \`${preview(value)}\`.` };
    if (value.includes('\u0000')) return { issue: `${name} must not contain NUL characters` };
    if (attribute.required && value.length === 0) return { issue: `${name} must be defined.` };
    if (attribute.minLength !== undefined && value.length < attribute.minLength) return { issue: `${name} must be at least ${attribute.minLength} characters` };
    if (maxLength !== undefined && value.length > maxLength) return { issue: `${name} must be at most ${maxLength} characters` };
    if (regex && value.length > MAX_PATTERN_INPUT) return { issue: `${name} must be at most ${MAX_PATTERN_INPUT} characters to be matched against its pattern` };
    if (regex && value !== '' && !regex.test(value)) return { issue: `${name} must match the following: "${regex}"` };
    return { value };
  };
}

function withTest(base: Check, test: (text: string) => boolean, message: string): Check {
  return (value, path) => {
    const result = base(value, path);
    if (result.issue) return result;
    if (result.value !== '' && !test(String(result.value))) return { issue: message };
    return result;
  };
}

function enumCheck(name: string, attribute: ScalarAttribute): Check {
  const allowed = attribute.enum ?? [];
  return (value) => {
    if (typeof value !== 'string' || !allowed.includes(value)) {
      return { issue: `${name} must be one of the following values: ${allowed.join(', ')}` };
    }
    return { value };
  };
}

function numberCheck(name: string, attribute: ScalarAttribute, kind: 'integer' | 'number'): Check {
  const min = attribute.min === undefined ? undefined : Number(attribute.min);
  const max = attribute.max === undefined ? undefined : Number(attribute.max);
  return (value) => {
    const cast = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof cast !== 'number' || !Number.isFinite(cast)) {
      return { issue: `${name} must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${preview(value)}\`).` };
    }
    if (kind === 'integer') {
      if (!Number.isInteger(cast)) return { issue: `${name} must be an integer` };
      if (cast < INT32.min || cast > INT32.max) return { issue: `${name} must be between ${INT32.min} and ${INT32.max}` };
    }
    if (min !== undefined && cast < min) return { issue: `${name} must be greater than or equal to ${min}` };
    if (max !== undefined && cast > max) return { issue: `${name} must be less than or equal to ${max}` };
    return { value: cast };
  };
}

function bigIntegerCheck(name: string, attribute: ScalarAttribute): Check {
  return (value) => {
    const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
    if (typeof text !== 'string' || !/^-?\d{1,19}$/.test(text)) return { issue: `${name} must be an integer` };
    const big = BigInt(text);
    if (big < -(2n ** 63n) || big > 2n ** 63n - 1n) return { issue: `${name} is out of range` };
    if (attribute.min !== undefined && big < BigInt(attribute.min)) return { issue: `${name} must be greater than or equal to ${attribute.min}` };
    if (attribute.max !== undefined && big > BigInt(attribute.max)) return { issue: `${name} must be less than or equal to ${attribute.max}` };
    return { value: text };
  };
}

function booleanCheck(name: string): Check {
  return (value) => {
    if (typeof value === 'boolean') return { value };
    if (value === 1 || value === 0) return { value: value === 1 };
    if (value === 'true' || value === 'false') return { value: value === 'true' };
    return { issue: `${name} must be a \`boolean\` type, but the final value was: \`${preview(value)}\`.` };
  };
}

function dateCheck(name: string): Check {
  return (value) => {
    if (typeof value !== 'string') return { issue: `${name} must be a valid date (YYYY-MM-DD)` };
    const text = /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value;
    const match = DATE.exec(text);
    if (!match) return { issue: `${name} must be a valid date (YYYY-MM-DD)` };
    const date = new Date(`${text}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || !isStorableYear(date) || date.toISOString().slice(0, 10) !== text) return { issue: `${name} must be a valid date (YYYY-MM-DD)` };
    return { value: text };
  };
}

function timeCheck(name: string): Check {
  return (value) => {
    if (typeof value !== 'string' || !TIME.test(value)) return { issue: `${name} must be a valid time (HH:mm:ss.SSS)` };
    return { value: normalizeTime(value) };
  };
}

function dateTimeCheck(name: string): Check {
  return (value) => {
    // A Date too: Strapi code writes `publishedAt: new Date()` through the entity service (JSON bodies never hold one).
    if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) return { issue: `${name} must be a valid date-time` };
    if (typeof value === 'string' && !/^\d{4}-\d{2}-\d{2}/.test(value)) return { issue: `${name} must be a valid date-time` };
    const date = toDate(value);
    if (Number.isNaN(date.getTime()) || !isStorableYear(date)) return { issue: `${name} must be a valid date-time` };
    return { value: date };
  };
}

/** Values nested deeper are shown as `[...]` / `{...}`: serialising them whole could overflow the stack. */
const PREVIEW_DEPTH = 20;

function preview(value: unknown): string {
  const text = nestedDeeperThan(value, PREVIEW_DEPTH) ? (Array.isArray(value) ? '[...]' : '{...}') : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Iterative, so any depth is safe to measure. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

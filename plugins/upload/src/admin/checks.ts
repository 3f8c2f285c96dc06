/**
 * The admin routes' body checks, worded as Strapi 4.26.2's yup schemas word
 * them (`validateYupSchema`: every failing field at once, "N errors
 * occurred", a type error alone for its field, `noUnknown` last at the root).
 * Each route's checks are written out in its own module in the order Strapi
 * declares the fields; this module holds the shared words and the collector.
 */
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';

export class Issues {
  private readonly list: ValidationIssue[] = [];

  add(path: string[], message: string): void {
    this.list.push({ path, message, name: 'ValidationError' });
  }

  /** Whether a field already failed (yup runs no more tests on a field whose type is wrong). */
  has(path: string[]): boolean {
    return this.list.some((issue) => issue.path.join('.') === path.join('.'));
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw ValidationError.fromIssues(this.list);
  }
}

/** yup's type error, with Strapi's locale ("… but the final value was: `x`." and the cast-from part when cast). */
export function typeMessage(path: string, type: string, value: unknown, original?: unknown): string {
  const cast = original !== undefined && original !== null && original !== value;
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${cast ? ` (cast from the value \`${printValue(original)}\`).` : '.'}`;
}

export const required = (path: string): string => `${path} is a required field`;

/** `noUnknown()`: the keys a body may not have, or null. */
export function unknownKeysMessage(body: Record<string, unknown>, known: readonly string[]): string | null {
  const extra = Object.keys(body).filter((key) => !known.includes(key));
  return extra.length > 0 ? `this field has unspecified keys: ${extra.join(', ')}` : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `yup.strapiID()`'s type: any string or a non-negative integer. */
export function isStrapiId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
}

/**
 * An id a row may have: Strapi passes any string on to the database; here a string that is not digits names no row
 * (so PostgreSQL never compares an integer column with text), which is what the checks then say.
 */
export function rowId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

/** A body that must be an object (`yup.object().required()`): anything else is yup's type error at the root. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) throw ValidationError.forField([], 'this is a required field');
  if (!isRecord(body)) throw ValidationError.forField([], typeMessage('this', 'object', body));
  return body;
}

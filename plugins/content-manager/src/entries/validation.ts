/**
 * The content manager's request checks, worded as Strapi 4.26.2's yup schemas word them (`bulkActionInputSchema`,
 * `validateFindAvailable`, `validateFindExisting`), with Tessera's bounds on top: a bulk action names at most
 * MAX_BULK_IDS entries, a relation list asks for at most 100 per page (Strapi's own bound).
 */
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';

export const MAX_BULK_IDS = 1000;
const MAX_LIST_IDS = 1000;

const issue = (path: string, message: string): ValidationIssue => ({ path: path === '' ? [] : [path], message, name: 'ValidationError' });

function typeMessage(path: string, type: string, value: unknown, cast?: unknown): string {
  const castFrom = cast === undefined ? '' : ` (cast from the value \`${printValue(cast)}\`)`;
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${castFrom}.`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strapi's `strapiID`: a number or a string of digits; anything else names the entry it cannot be. */
export function toEntryId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value) > 0 ? Number(value) : null;
  return null;
}

/** `{ ids: [id, …] }`, at least one id. */
export function bulkIds(body: unknown): number[] {
  if (!isRecord(body)) throw ValidationError.fromIssues([issue('', typeMessage('this', 'object', body))]);
  const { ids } = body;
  if (ids === undefined || ids === null) throw ValidationError.fromIssues([issue('ids', 'ids is a required field')]);
  if (!Array.isArray(ids)) throw ValidationError.fromIssues([issue('ids', typeMessage('ids', 'array', ids))]);
  if (ids.length < 1) throw ValidationError.fromIssues([issue('ids', 'ids field must have at least 1 items')]);
  if (ids.length > MAX_BULK_IDS) throw ValidationError.fromIssues([issue('ids', `ids field must have less than or equal to ${MAX_BULK_IDS} items`)]);
  const issues: ValidationIssue[] = [];
  const result = ids.map((id, index) => {
    const entryId = toEntryId(id);
    if (entryId === null) issues.push(issue(`ids[${index}]`, `ids[${index}] must be a valid ID`));
    return entryId ?? 0;
  });
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return [...new Set(result)];
}

/** A query's id list (`ids[0]=1&ids[1]=2`, `idsToOmit`, …): absent is empty. */
export function idList(query: Record<string, unknown>, name: string): number[] {
  const raw = query[name];
  if (raw === undefined || raw === '') return [];
  const values = Array.isArray(raw) ? raw : isRecord(raw) ? Object.values(raw) : [raw];
  if (values.length > MAX_LIST_IDS) throw ValidationError.fromIssues([issue(name, `${name} field must have less than or equal to ${MAX_LIST_IDS} items`)]);
  const issues: ValidationIssue[] = [];
  const ids = values.map((value, index) => {
    const id = toEntryId(value);
    if (id === null) issues.push(issue(`${name}[${index}]`, `${name}[${index}] must be a valid ID`));
    return id ?? 0;
  });
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return ids;
}

export interface PageQuery {
  page: number;
  pageSize: number;
}

/** `page` ≥ 1 and `pageSize` in 1…100 (numbers or numeric strings, as yup casts them), each defaulted. */
export function relationPage(query: Record<string, unknown>): PageQuery {
  const issues: ValidationIssue[] = [];
  const read = (name: string, fallback: number, max?: number): number => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : typeof raw === 'number' ? raw : NaN;
    if (Number.isNaN(value)) issues.push(issue(name, typeMessage(name, 'number', NaN, raw)));
    else if (!Number.isInteger(value)) issues.push(issue(name, `${name} must be an integer`));
    else if (value < 1) issues.push(issue(name, `${name} must be greater than or equal to 1`));
    else if (max !== undefined && value > max) issues.push(issue(name, `${name} must be less than or equal to ${max}`));
    else return value;
    return fallback;
  };
  const page = read('page', 1);
  const pageSize = read('pageSize', 10, 100);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return { page, pageSize };
}

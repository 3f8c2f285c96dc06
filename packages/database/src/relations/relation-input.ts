/**
 * Relation input → a normalized operation. Clients may send a plain id, a
 * list of ids, or `{ connect, disconnect }` / `{ set }` in shorthand (ids) or
 * longhand (`{ id, position }`). Every shape problem is collected with its
 * path and thrown as one 400 ValidationError before anything is written.
 */
import { entryId } from '../query/page-and-id';
import { ValidationError, type ValidationIssue } from '@tessera/errors';

export type Position = { end: true } | { start: true } | { before: number } | { after: number };

export interface ConnectItem {
  id: number;
  /** Null when the client gave none: the entry goes last, already connected or not (Strapi v4's `{ end: true }`). */
  position: Position | null;
  path: string[];
}

export type RelationOps =
  | { kind: 'set'; ids: number[] }
  | { kind: 'patch'; connect: ConnectItem[]; disconnect: number[] };

export interface InputOptions {
  /** Media attributes take ids or `set` only (no connect/disconnect). */
  media?: boolean;
}

const OPERATION_KEYS = new Set(['connect', 'disconnect', 'set']);
/**
 * Most ids one list (a plain list, `set`, `connect` or `disconnect`) may hold. A 1 MB body fits 150,000
 * ids (500,000 one-digit duplicates), each costing checks, look-ups, join rows or an error entry: the
 * cap bounds one request's work, above the tens of thousands of links real lists reach.
 */
export const MAX_RELATION_IDS = 50_000;
/** Problems reported per list: past these the list is wrong anyway, and 50,000 entries would bloat the answer. */
const MAX_ISSUES_PER_LIST = 20;
const POSITION_KEYS = new Set(['before', 'after', 'start', 'end']);

/**
 * A relation value that is an object naming neither an id nor an operation: what the content API answers a client
 * with a 400 for (a typo such as `attach` must not be a silent no-op), while server code's is ignored, as Strapi does.
 */
export function operationlessObjectIssues(path: string[], value: unknown): ValidationIssue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'id' in value) return [];
  const keys = Object.keys(value);
  if (keys.some((key) => OPERATION_KEYS.has(key))) return [];
  return keys.map((key) => issue([...path, key], `Invalid key ${key}: use connect, disconnect or set`));
}

export function parseRelationInput(name: string, value: unknown, options: InputOptions = {}): RelationOps {
  const issues: ValidationIssue[] = [];
  const ops = parse([name], value, options, issues);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return ops;
}

function parse(path: string[], value: unknown, options: InputOptions, issues: ValidationIssue[]): RelationOps {
  if (value === null || value === undefined) return { kind: 'set', ids: [] };
  if (Array.isArray(value)) return { kind: 'set', ids: idList(path, value, issues) };
  if (!isObject(value)) {
    const id = toId(value);
    if (id === null) issues.push(issue(path, `${path[0]} must be an id, a list of ids or an object with connect, disconnect or set`));
    return { kind: 'set', ids: id === null ? [] : [id] };
  }
  const keys = Object.keys(value);
  const operations = keys.some((key) => OPERATION_KEYS.has(key));
  if ('id' in value && !operations) return { kind: 'set', ids: idList(path, [value], issues) };
  // An object with neither an id nor an operation (`profile: { displayName, bio }`, an entry's fields where its id
  // belongs) changes nothing: Strapi 4.26.2's entity manager reads it as empty connect and disconnect lists. (The
  // content API refuses it from a client first: operationlessObjectIssues.)
  if (!operations) return { kind: 'patch', connect: [], disconnect: [] };
  for (const key of keys) {
    if (!OPERATION_KEYS.has(key)) issues.push(issue([...path, key], `Invalid key ${key}: use connect, disconnect or set`));
  }
  if ('set' in value) {
    if ('connect' in value || 'disconnect' in value) issues.push(issue(path, `${path[0]}: set cannot be combined with connect or disconnect`));
    const list = asList(value.set);
    if (!list) {
      issues.push(issue([...path, 'set'], 'set must be a list'));
      return { kind: 'set', ids: [] };
    }
    return { kind: 'set', ids: idList([...path, 'set'], list, issues) };
  }
  if (options.media && ('connect' in value || 'disconnect' in value)) {
    issues.push(issue(path, `${path[0]}: connect and disconnect are not usable on media attributes; send ids or set`));
  }
  return { kind: 'patch', connect: connectList([...path, 'connect'], value.connect, issues), disconnect: disconnectList([...path, 'disconnect'], value.disconnect, issues) };
}

function connectList(path: string[], value: unknown, issues: ValidationIssue[]): ConnectItem[] {
  if (value === undefined || value === null) return [];
  const list = asList(value) ?? [value];
  if (tooLong(path, list, issues)) return [];
  const items: ConnectItem[] = [];
  const seen = new Set<number>();
  const reported = issues.length;
  for (const [index, raw] of list.entries()) {
    if (issues.length - reported >= MAX_ISSUES_PER_LIST) break;
    const itemPath = [...path, String(index)];
    const id = isObject(raw) ? toId(raw.id) : toId(raw);
    if (id === null) {
      issues.push(issue(itemPath, 'connect items must be ids or objects with an id'));
      continue;
    }
    if (seen.has(id)) {
      issues.push(issue(itemPath, `Relation ${id} is connected more than once`));
      continue;
    }
    seen.add(id);
    const position = isObject(raw) ? parsePosition([...itemPath, 'position'], raw, issues) : null;
    if (isObject(raw)) {
      for (const key of Object.keys(raw)) if (key !== 'id' && key !== 'position') issues.push(issue([...itemPath, key], `Invalid key ${key}`));
    }
    items.push({ id, position, path: itemPath });
  }
  return items;
}

function parsePosition(path: string[], item: Record<string, unknown>, issues: ValidationIssue[]): Position | null {
  if (item.position === undefined || item.position === null) return null;
  const position = item.position;
  if (!isObject(position)) {
    issues.push(issue(path, 'position must be an object'));
    return null;
  }
  const keys = Object.keys(position);
  if (keys.length !== 1 || !POSITION_KEYS.has(keys[0])) {
    issues.push(issue(path, 'position must hold exactly one of before, after, start, end'));
    return null;
  }
  const key = keys[0];
  const raw = position[key];
  if (key === 'start' || key === 'end') {
    if (raw !== true && raw !== 'true') {
      issues.push(issue([...path, key], `position.${key} must be true`));
      return null;
    }
    return key === 'start' ? { start: true } : { end: true };
  }
  const anchor = toId(raw);
  if (anchor === null) {
    issues.push(issue([...path, key], `position.${key} must be an id`));
    return null;
  }
  return key === 'before' ? { before: anchor } : { after: anchor };
}

function disconnectList(path: string[], value: unknown, issues: ValidationIssue[]): number[] {
  if (value === undefined || value === null) return [];
  const list = asList(value) ?? [value];
  return idList(path, list, issues, true);
}

/** Ids of a plain list, `set` or `disconnect` (duplicates are an error except in disconnect). */
function idList(path: string[], list: unknown[], issues: ValidationIssue[], allowDuplicates = false): number[] {
  if (tooLong(path, list, issues)) return [];
  const ids = new Set<number>();
  const reported = issues.length;
  for (const [index, raw] of list.entries()) {
    if (issues.length - reported >= MAX_ISSUES_PER_LIST) break;
    const id = isObject(raw) ? toId(raw.id) : toId(raw);
    if (id === null) issues.push(issue([...path, String(index)], 'must be an id or an object with an id'));
    else if (ids.has(id)) {
      if (!allowDuplicates) issues.push(issue([...path, String(index)], `Relation ${id} is given more than once`));
    } else ids.add(id);
  }
  return [...ids];
}

/** A list beyond MAX_RELATION_IDS is one issue, reported before any of its items is looked at. */
function tooLong(path: string[], list: unknown[], issues: ValidationIssue[]): boolean {
  if (list.length <= MAX_RELATION_IDS) return false;
  issues.push(issue(path, `${path[0]}: at most ${MAX_RELATION_IDS} ids per list, got ${list.length}`));
  return true;
}

/** A relation id (query/page-and-id.ts's rule); null for anything that cannot be one (this module's 400). */
function toId(value: unknown): number | null {
  return entryId(value) ?? null;
}

/** Lists, and the `{ '0': …, '1': … }` objects some encoders send. */
function asList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

/**
 * `sort` → SortItem[]. Accepts `title`, `title:desc`, `a:asc,b:desc`, indexed
 * arrays of those, and the object form `{ title: 'desc' }`. A dotted path
 * (`category.name`) sorts through to-one relations. `id` is appended as the
 * last key so ties always come back in the same order.
 */
import type { EntityMetadata, RelationField } from '../metadata/metadata';
import type { SortItem } from './plan';
import type { CompileContext } from './compile-context';
import { arrayLike, invalidParameter, isPlainObject } from './compile-context';
import { readable } from './compile-filters';

const MAX_SORT_KEYS = 20;
/** Relation hops in one sort path, like populate's depth: each hop is two joins. */
const MAX_SORT_HOPS = 10;
/**
 * Distinct relations joined for the whole sort (paths share their common
 * prefixes): bounds the joins, and keeps SQLite under its 64-table limit.
 */
const MAX_SORT_JOINS = 20;

export function compileSort(value: unknown, entity: EntityMetadata, context: CompileContext): SortItem[] {
  const items: SortItem[] = [];
  if (value !== undefined && value !== '') {
    for (const [path, direction] of sortEntries(value)) items.push(resolveSort(path, direction, entity, context));
  }
  if (items.length > MAX_SORT_KEYS) throw invalidParameter('sort', `at most ${MAX_SORT_KEYS} keys`);
  if (joinedRelations(items) > MAX_SORT_JOINS) throw invalidParameter('sort', `at most ${MAX_SORT_JOINS} relations in all`);
  if (!items.some((item) => item.path.length === 0 && item.field.name === 'id')) {
    items.push({ path: [], field: entity.columns.get('id')!, direction: 'asc', tiebreak: true });
  }
  return items;
}

function sortEntries(value: unknown): Array<[string, string]> {
  if (typeof value === 'string') return value.split(',').filter((part) => part.trim() !== '').map(splitDirection);
  const list = arrayLike(value);
  if (list) return list.flatMap((item) => sortEntries(item));
  if (isPlainObject(value)) return objectEntries(value, '');
  throw invalidParameter('sort');
}

function splitDirection(part: string): [string, string] {
  const [path, direction = 'asc', ...rest] = part.trim().split(':');
  if (rest.length > 0) throw invalidParameter('sort', `bad sort "${part}"`);
  return [path.trim(), direction.trim()];
}

function objectEntries(value: Record<string, unknown>, prefix: string): Array<[string, string]> {
  return Object.entries(value).flatMap(([key, child]): Array<[string, string]> => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof child === 'string') return [[path, child]];
    if (isPlainObject(child)) return objectEntries(child, path);
    throw invalidParameter('sort');
  });
}

function resolveSort(path: string, direction: string, entity: EntityMetadata, context: CompileContext): SortItem {
  const normalized = direction.toLowerCase();
  if (normalized !== 'asc' && normalized !== 'desc') {
    throw invalidParameter('sort', `direction must be asc or desc, got "${direction.slice(0, 20)}"`);
  }
  const segments = path.split('.');
  if (segments.length - 1 > MAX_SORT_HOPS) throw invalidParameter('sort', `at most ${MAX_SORT_HOPS} relations in a path`);
  const hops: RelationField[] = [];
  let current = entity;
  for (const segment of segments.slice(0, -1)) {
    const link = current.links.get(segment);
    if (!link || link.private || link.kind !== 'relation') throw invalidParameter(segment);
    if (link.toMany) throw invalidParameter(segment, 'cannot sort through a to-many relation');
    if (!readable(link.target, context)) throw invalidParameter(segment);
    hops.push(link);
    current = context.metadata.get(link.target)!;
  }
  const name = segments[segments.length - 1];
  const field = current.columns.get(name);
  if (!field || (field.private && !context.options.allowPrivate)) throw invalidParameter(name);
  if (field.type === 'json') throw invalidParameter(name, 'cannot sort on a json attribute');
  return { path: hops, field, direction: normalized };
}

/** How many relation joins the sort needs: one per distinct path prefix, as the SQL builder shares them. */
function joinedRelations(items: SortItem[]): number {
  const prefixes = new Set<string>();
  for (const item of items) {
    let prefix = '';
    for (const hop of item.path) {
      prefix += `.${hop.name}`;
      prefixes.add(prefix);
    }
  }
  return prefixes.size;
}

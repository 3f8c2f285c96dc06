/**
 * `filters` → Condition. Keys are attributes, logical operators (`$and`,
 * `$or`, `$not`) or comparison operators; values arrive as strings from a
 * query string or typed from JSON/GraphQL, and are coerced per attribute type
 * here so both databases compare like with like.
 */
import type { ColumnField, ComponentField, EntityMetadata, MediaField, RelationField } from '../metadata/metadata';
import { FILE_UID } from '../metadata/media';
import type { ComparisonOperator, Condition } from './plan';
import { COMPARISON_OPERATORS } from './plan';
import type { CompileContext } from './compile-context';
import { arrayLike, invalidParameter, isPlainObject } from './compile-context';
import { coerceFilterValue } from './coerce';

const OPERATORS: ReadonlySet<string> = new Set(COMPARISON_OPERATORS);
const LIST_OPERATORS: ReadonlySet<ComparisonOperator> = new Set(['$in', '$notIn', '$between']);
const NEGATED: Partial<Record<ComparisonOperator, ComparisonOperator>> = {
  $ne: '$eq',
  $nei: '$eqi',
  $notContains: '$contains',
  $notContainsi: '$containsi',
};
const STRING_OPERATORS: ReadonlySet<ComparisonOperator> = new Set([
  '$eqi',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);
/** Types whose stored text is the same on both databases, so text matching means one thing. */
const TEXT_MATCHABLE = new Set([
  'string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password',
  'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'increments',
]);
/** On json attributes these match the stored JSON text (Postgres: the jsonb's text form), as Strapi does on SQLite. */
const JSON_TEXT_OPERATORS: ReadonlySet<ComparisonOperator> = new Set(['$contains', '$notContains', '$containsi', '$notContainsi']);
const MAX_DEPTH = 12;

/**
 * Values a caller's filter may compare with. Each is bound as one statement parameter, and a statement takes at
 * most 32,766 on SQLite and 65,535 on PostgreSQL and MySQL: GraphQL variables (a query string holds at most 1,000)
 * sent `in` lists past that, a 500. Well below either, far above what a query string can send. Trusted server code
 * (`allowPrivate`) is not capped: as on Strapi, it may pass what the database takes.
 */
export const MAX_FILTER_VALUES = 10_000;
/**
 * Comparisons in one filter: what a query string's 1,000 parameters can hold, so GraphQL variables (bounded only by
 * the body's size) cannot ask a database for more per row than a REST URL can.
 */
export const MAX_FILTER_COMPARISONS = 1_000;
/**
 * Relations, components and media one filter goes through, counting each hop of a path (as sort's joins are
 * counted). Each is a subquery, and SQLite's time grows with the cube of the number of correlated ones in a
 * statement: 405 one-hop `$or` branches in a 16 KB URL took 6 s of its only thread over 30 articles.
 */
export const MAX_FILTER_LINKS = 20;

export function compileFilters(value: unknown, entity: EntityMetadata, context: CompileContext): Condition | null {
  if (value === undefined || value === null || value === '') return null;
  const condition = compileObject(value, entity, context, 0);
  if (condition && context.options.allowPrivate !== true) {
    const size = sizeOf(condition);
    if (size.values > MAX_FILTER_VALUES) throw invalidParameter('filters', `at most ${MAX_FILTER_VALUES} values`);
    if (size.comparisons > MAX_FILTER_COMPARISONS) throw invalidParameter('filters', `at most ${MAX_FILTER_COMPARISONS} comparisons`);
    if (size.links > MAX_FILTER_LINKS) throw invalidParameter('filters', `at most ${MAX_FILTER_LINKS} relations, components or media in all`);
  }
  return condition;
}

interface FilterSize {
  /** Values compared with (each item of an `$in` list is one): each is a statement parameter. */
  values: number;
  comparisons: number;
  links: number;
}

function sizeOf(condition: Condition, size: FilterSize = { values: 0, comparisons: 0, links: 0 }): FilterSize {
  switch (condition.kind) {
    case 'and':
    case 'or':
      for (const item of condition.items) sizeOf(item, size);
      return size;
    case 'not':
      return sizeOf(condition.item, size);
    case 'compare':
      size.comparisons += 1;
      size.values += Array.isArray(condition.value) ? condition.value.length : 1;
      return size;
    default:
      size.links += 1;
      return sizeOf(condition.condition, size);
  }
}

function compileObject(value: unknown, entity: EntityMetadata, context: CompileContext, depth: number): Condition | null {
  if (depth > MAX_DEPTH) throw invalidParameter('filters', 'nested too deeply');
  if (!isPlainObject(value)) throw invalidParameter('filters');
  const items: Condition[] = [];
  for (const [key, child] of Object.entries(value)) {
    const condition = compileKey(key, child, entity, context, depth);
    if (condition) items.push(condition);
  }
  return combine('and', items);
}

function compileKey(key: string, value: unknown, entity: EntityMetadata, context: CompileContext, depth: number): Condition | null {
  if (key === '$and' || key === '$or') {
    const list = arrayLike(value);
    if (!list) throw invalidParameter(key, 'expects an array');
    const items = list.map((item) => compileObject(item, entity, context, depth + 1)).filter(isCondition);
    return combine(key === '$and' ? 'and' : 'or', items);
  }
  if (key === '$not') {
    const inner = compileObject(value, entity, context, depth + 1);
    return inner ? { kind: 'not', item: inner } : null;
  }
  const column = entity.columns.get(key);
  const allowPrivate = context.options.allowPrivate === true;
  if (column && (!column.private || allowPrivate)) return uncastEquality(column, value, context) ?? compileColumn(column, value, depth);
  const link = entity.links.get(key);
  if (link && (!link.private || allowPrivate) && link.kind === 'relation') return compileRelation(link, value, context, depth);
  if (link && (!link.private || allowPrivate) && link.kind === 'component') return compileComponent(entity, link, value, context, depth);
  if (link && (!link.private || allowPrivate) && link.kind === 'media') return compileMedia(entity, link, value, context, depth);
  // Dynamic zones are polymorphic: not filterable (spec, "Deep filtering").
  if (context.options.dropUnknownFilterKeys && !link && !column) return null;
  throw invalidParameter(key);
}

/**
 * Strapi 4.26.2's query engine casts no value for a big integer (a string field there) nor for a column that is no
 * attribute (a morphToOne's `target_id`): server code's plain equality with a value such a column cannot hold
 * compares as text, and matches no row on SQLite and MySQL (PostgreSQL refuses the comparison: a 500).
 * strapi-plugin-todo asks `target_id = 'undefined'` on a create page, the scheduler plugin `contentId = 'null'` on
 * a single type. Tessera matches no row on every database, for server code only; the content API keeps its 400.
 * Undefined when the value can be stored, or the rule does not apply.
 */
function uncastEquality(field: ColumnField, value: unknown, context: CompileContext): Condition | undefined {
  if (context.options.serverCode !== true || value === null || typeof value === 'object') return undefined;
  if (field.type !== 'biginteger' && field.morphOf === undefined) return undefined;
  try {
    coerceFilterValue(field, value, '$eq');
    return undefined;
  } catch {
    return { kind: 'compare', field, operator: '$in', value: [] };
  }
}

function compileComponent(owner: EntityMetadata, field: ComponentField, value: unknown, context: CompileContext, depth: number): Condition | null {
  const target = context.metadata.get(field.components[0]);
  if (!target || !isPlainObject(value)) throw invalidParameter(field.name);
  const condition = compileObject(value, target, context, depth + 1);
  return condition ? { kind: 'component', owner, field, target, condition } : null;
}

function compileRelation(relation: RelationField, value: unknown, context: CompileContext, depth: number): Condition | null {
  const target = context.metadata.get(relation.target);
  // Filtering on a type the caller may not read would let them probe its values.
  if (!target || !readable(relation.target, context)) throw invalidParameter(relation.name);
  const condition = compileLinked(value, target, context, depth);
  return condition ? { kind: 'related', relation, target, condition } : null;
}

/** Media filter under the same rule as media populate: a caller who may not see files may not probe their attributes either. */
function compileMedia(owner: EntityMetadata, field: MediaField, value: unknown, context: CompileContext, depth: number): Condition | null {
  const target = context.metadata.get(FILE_UID);
  if (!target) throw invalidParameter(field.name, 'no file content type is registered');
  if (!readable(FILE_UID, context)) throw invalidParameter(field.name);
  const condition = compileLinked(value, target, context, depth);
  return condition ? { kind: 'media', owner, field, target, condition } : null;
}

/** The condition on a linked entry; a scalar (or list, or bare operators) filters by its id. */
function compileLinked(value: unknown, target: EntityMetadata, context: CompileContext, depth: number): Condition | null {
  return isPlainObject(value) && !Object.keys(value).some((key) => OPERATORS.has(key))
    ? compileObject(value, target, context, depth + 1)
    : compileColumn(target.columns.get('id')!, value, depth);
}

function compileColumn(field: ColumnField, value: unknown, depth: number): Condition | null {
  if (depth > MAX_DEPTH) throw invalidParameter('filters', 'nested too deeply');
  if (!isPlainObject(value)) return compileComparison(field, '$eq', value);
  const items: Condition[] = [];
  for (const [key, operand] of Object.entries(value)) {
    if (key === '$not') {
      const inner = compileColumn(field, operand, depth + 1);
      if (inner) items.push({ kind: 'not', item: inner });
    } else if (key === '$and' || key === '$or') {
      const list = arrayLike(operand);
      if (!list) throw invalidParameter(key, 'expects an array');
      const inner = list.map((item) => compileColumn(field, item, depth + 1)).filter(isCondition);
      const combined = combine(key === '$and' ? 'and' : 'or', inner);
      if (combined) items.push(combined);
    } else if (OPERATORS.has(key)) {
      const condition = compileComparison(field, key as ComparisonOperator, operand);
      if (condition) items.push(condition);
    } else {
      throw invalidParameter(key);
    }
  }
  return combine('and', items);
}

function compileComparison(field: ColumnField, operator: ComparisonOperator, raw: unknown): Condition | null {
  const textMatchable = TEXT_MATCHABLE.has(field.type) || (field.type === 'json' && JSON_TEXT_OPERATORS.has(operator));
  if (STRING_OPERATORS.has(operator) && !textMatchable) {
    throw invalidParameter(operator, `not available on ${field.type} attribute ${field.name}`);
  }
  if (operator === '$null' || operator === '$notNull') {
    const flag = coerceFilterValue({ ...field, type: 'boolean' }, raw, operator);
    return { kind: 'compare', field, operator, value: flag };
  }
  if (operator === '$in' || operator === '$notIn') {
    const list = raw === null || raw === undefined ? [] : arrayLike(raw) ?? [raw];
    if (list.some((item) => isPlainObject(item) || Array.isArray(item))) throw invalidParameter(operator);
    return { kind: 'compare', field, operator, value: list.map((item) => coerceFilterValue(field, item, operator)) };
  }
  if (operator === '$between') {
    const list = arrayLike(raw);
    if (!list || list.length !== 2) throw invalidParameter('$between', 'expects exactly two values');
    return { kind: 'compare', field, operator, value: list.map((item) => coerceFilterValue(field, item, operator)) };
  }
  const list = arrayLike(raw);
  if (list && !LIST_OPERATORS.has(operator)) {
    // An array on a single-value operator: one of them matches (none of them, when negated).
    const positive = NEGATED[operator];
    const items = list.map((item) => compileComparison(field, positive ?? operator, item)).filter(isCondition);
    const anyOf = combine('or', items);
    if (!anyOf) return null;
    return positive ? { kind: 'not', item: anyOf } : anyOf;
  }
  if (isPlainObject(raw)) throw invalidParameter(operator);
  return { kind: 'compare', field, operator, value: coerceFilterValue(field, raw, operator) };
}

function combine(kind: 'and' | 'or', items: Condition[]): Condition | null {
  if (items.length === 0) return null;
  if (items.length === 1) return items[0];
  return { kind, items };
}

function isCondition(value: Condition | null): value is Condition {
  return value !== null;
}

export function readable(uid: string, context: CompileContext): boolean {
  return context.options.canRead === undefined || context.options.canRead(uid);
}

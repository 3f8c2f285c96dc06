/**
 * One compiled plan for every value of a filter's single comparisons. A page
 * for `filters[slug][$eq]=article-1` and one for `=article-2` differ only in a
 * value, yet each compiled a plan of its own (fields, populate levels, sort,
 * conditions: most of a request's own work once traffic varies). Here a
 * request's `filters` are split into their shape (each comparison with one
 * value, `$eq` … `$endsWithi`, whose value is a string, number or boolean,
 * replaced by a placeholder naming its type) and those values. A cache keyed
 * by the shape compiles its first plan as usual, then gives every later
 * request a copy of it with the new values coerced into its comparisons, as
 * the compiler coerces them (same checks, same 400s). The SQL is another
 * matter: sql/plan-shape.ts keeps text matches' patterns in its key, since
 * they decide the SQL written.
 *
 * The values are matched to the comparisons they became by order, and only
 * where nothing else in the plan is such a comparison and each pair agrees
 * (operator, attribute name, coerced value): a filter the compiler turned
 * into something else keeps a plan per set of values, as before. A value
 * that coerces to null (which is `IS NULL`, other SQL) is compiled anew.
 */
import { COMPARISON_OPERATORS, comparisonsOf, type CompareCondition, type ComparisonOperator, type Condition, type ReadPlan } from './plan';
import { coerceFilterValue } from './coerce';
import { isPlainObject } from './compile-context';

/** One value taken out of `filters`: the attribute it was under, its operator and the value as sent. */
export interface TakenValue {
  name: string;
  operator: ComparisonOperator;
  raw: string | number | boolean;
}

/** `filters` without their single comparison values (`shape`, JSON-ready), and the values in the order they were met. */
export interface FilterValues {
  shape: unknown;
  values: TakenValue[];
}

/** Where each value went in a compiled plan: the comparison it became, in the order the values were taken. */
export type ValueSlots = readonly CompareCondition[];

/** Operators comparing with one value: every one but the lists and the null tests. */
const SINGLE: ReadonlySet<string> = new Set<ComparisonOperator>(
  COMPARISON_OPERATORS.filter((operator) => !['$in', '$notIn', '$between', '$null', '$notNull'].includes(operator)),
);
const SCALAR: ReadonlySet<string> = new Set(['string', 'number', 'boolean']);
const LIST_INDEX = /^\d+$/;
/** Past this depth the compiler refuses the filter anyway (MAX_DEPTH): the shape is left as it is. */
const MAX_WALK = 40;

/** The values to take out of `filters`; null when there are none (the parameters are their own key). */
export function takeFilterValues(filters: unknown): FilterValues | null {
  const values: TakenValue[] = [];
  const shape = walk(filters, '', values, 0);
  return values.length === 0 ? null : { shape, values };
}

function walk(node: unknown, name: string, values: TakenValue[], depth: number): unknown {
  if (depth > MAX_WALK) return node;
  if (Array.isArray(node)) return node.map((item) => walk(item, name, values, depth + 1));
  // Anything but a plain object (a Date from server code, say) stays whole: its JSON, not its keys, is in the key.
  if (!isPlainObject(node)) return node;
  // No prototype: a `__proto__` key is a key like any other here, as the compiler (which refuses it) sees it.
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, child] of Object.entries(node)) {
    if (SINGLE.has(key) && SCALAR.has(typeof child)) {
      values.push({ name, operator: key as ComparisonOperator, raw: child as TakenValue['raw'] });
      copy[key] = `\u0000${typeof child}`;
    } else {
      // Operators and qs's list indexes (`$or[0]`) keep the attribute above them; an attribute's key names it.
      copy[key] = walk(child, key.startsWith('$') || LIST_INDEX.test(key) ? name : key, values, depth + 1);
    }
  }
  return copy;
}

/**
 * The comparisons `plan` made of `values`, or null when they cannot be told apart: a count that differs (a value
 * in a list, an implicit `$eq`), or a pair whose operator, attribute or coerced value disagrees.
 */
export function valueSlots(plan: ReadPlan, values: readonly TakenValue[]): ValueSlots | null {
  const found = plan.where ? comparisonsOf(plan.where).filter((condition) => SINGLE.has(condition.operator) && isPlainValue(condition.value)) : [];
  if (found.length !== values.length) return null;
  for (let index = 0; index < found.length; index++) {
    const condition = found[index]!;
    const value = values[index]!;
    if (condition.operator !== value.operator || condition.field.name !== value.name) return null;
    if (!sameValue(condition.value, coerceFilterValue(condition.field, value.raw, value.operator))) return null;
  }
  return found;
}

/**
 * `plan` with `values` in its `slots` (coerced as the compiler does: an invalid value throws its 400); null when a
 * value coerces to something that is not a plain value, which the compiler writes as other SQL.
 */
export function withValues(plan: ReadPlan, slots: ValueSlots, values: readonly TakenValue[]): ReadPlan | null {
  const replaced = new Map<CompareCondition, CompareCondition>();
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index]!;
    const value = coerceFilterValue(slot.field, values[index]!.raw, slot.operator);
    if (!isPlainValue(value)) return null;
    replaced.set(slot, { ...slot, value });
  }
  return { ...plan, where: plan.where && replace(plan.where, replaced) };
}

/** A copy of `condition` with the replaced comparisons swapped in (only the nodes above them are copied). */
function replace(condition: Condition, replaced: ReadonlyMap<CompareCondition, CompareCondition>): Condition {
  switch (condition.kind) {
    case 'and':
    case 'or':
      return { ...condition, items: condition.items.map((item) => replace(item, replaced)) };
    case 'not':
      return { ...condition, item: replace(condition.item, replaced) };
    case 'compare':
      return replaced.get(condition) ?? condition;
    default:
      return { ...condition, condition: replace(condition.condition, replaced) };
  }
}

/** A value the compiler writes as one bound parameter: not null, not a list. */
function isPlainValue(value: unknown): boolean {
  return value !== null && value !== undefined && (SCALAR.has(typeof value) || typeof value === 'bigint' || value instanceof Date);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

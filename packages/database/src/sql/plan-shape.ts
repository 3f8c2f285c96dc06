/**
 * A read plan's SQL shape: what its statements' text depends on, with the
 * values of plain comparisons left out. The content API compiles a plan per
 * set of parameters, so `filters[slug][$eq]=article-1` and `=article-2` are
 * two plans; their statements differ only in that binding. Keying the
 * compiled SQL (statement-templates.ts) by shape lets the second plan bind its
 * value into the first one's SQL instead of building it again through knex.
 *
 * A comparison's value is a slot (left out of the key, bound per plan) only
 * where conditions.ts writes the same SQL whatever the value: `$eq`, `$ne`,
 * `$lt`, `$lte`, `$gt`, `$gte` with a value that is not null (null is
 * `IS NULL` or `1 = 0`) and whose stored form is a scalar. Every other value
 * (lists, whose length is in the SQL; text matches, whose pattern decides
 * LIKE or ILIKE, folding, search tables; nulls) is part of the key itself.
 */
import type { Dialect } from '../connection/config';
import type { CompareCondition, Condition, ComparisonOperator, ReadPlan } from '../query/plan';
import { encoderFor } from '../query/codec';

export interface PlanShape {
  /** The plan's SQL shape: equal keys, equal SQL once the slots are bound. */
  key: string;
  /** The comparisons whose values are bound, in the order the key names them. */
  slots: readonly CompareCondition[];
  /** Their stored values, in the same order. */
  values: readonly unknown[];
}

const SLOT_OPERATORS = new Set<ComparisonOperator>(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte']);
const SCALARS = new Set(['string', 'number', 'boolean', 'bigint']);

/** Short, never reused names for metadata objects (entities, fields, relations) in keys. */
const ids = new WeakMap<object, number>();
let lastId = 0;
function idOf(value: object): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = ++lastId;
    ids.set(value, id);
  }
  return id;
}

export class PlanShapes {
  private readonly shapes = new WeakMap<ReadPlan, PlanShape>();

  constructor(private readonly dialect: Dialect) {}

  /** The shape of one level of `plan`: its table, fields, filters, sort and publication state (not what it populates). */
  of(plan: ReadPlan): PlanShape {
    let shape = this.shapes.get(plan);
    if (!shape) {
      const slots: CompareCondition[] = [];
      const values: unknown[] = [];
      const fields = plan.fields.map((field) => idOf(field)).join(',');
      const sort = plan.sort.map((item) => `${item.path.map(idOf).join('.')}>${idOf(item.field)}:${item.direction}${item.tiebreak ? '~' : ''}`).join(',');
      const where = plan.where ? this.condition(plan.where, slots, values) : '';
      shape = { key: `${idOf(plan.entity)}|${plan.publicationState}|${fields}|${sort}|${where}`, slots, values };
      this.shapes.set(plan, shape);
    }
    return shape;
  }

  private condition(condition: Condition, slots: CompareCondition[], values: unknown[]): string {
    switch (condition.kind) {
      case 'and':
      case 'or':
        return `${condition.kind}(${condition.items.map((item) => this.condition(item, slots, values)).join(',')})`;
      case 'not':
        return `not(${this.condition(condition.item, slots, values)})`;
      case 'related':
        return `rel${idOf(condition.relation)}>${idOf(condition.target)}(${this.condition(condition.condition, slots, values)})`;
      case 'component':
      case 'media':
        return `${condition.kind}${idOf(condition.owner)}.${idOf(condition.field)}>${idOf(condition.target)}(${this.condition(condition.condition, slots, values)})`;
      case 'compare': {
        const head = `${idOf(condition.field)}${condition.operator}`;
        if (SLOT_OPERATORS.has(condition.operator) && condition.value !== null && !slots.includes(condition)) {
          const stored = encoderFor(condition.field, this.dialect)(condition.value);
          if (stored !== null && SCALARS.has(typeof stored)) {
            slots.push(condition);
            values.push(stored);
            return `${head}?${typeof stored}`;
          }
        }
        return `${head}=${valueKey(condition.value)}`;
      }
    }
  }
}

/** A comparison value as key text: distinct values, distinct texts (bigints and undefined included). */
function valueKey(value: unknown): string {
  if (value === undefined) return 'u';
  return `${typeof value}:${JSON.stringify(value, (_name, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item))}`;
}

/**
 * Compiled SQL per read plan. A plan (`ReadPlan`) does not change once
 * compiled, and the content API reuses plans across requests, so the SQL text
 * and the filter bindings of a plan are the same on every call: only the id
 * or the page differs. Each statement is built once through knex with marker
 * values in those places; later calls copy the bindings and put their values
 * where the markers were. Inserts use it too (sql/writer.ts): per table and
 * set of columns written.
 *
 * Reads are kept per plan *shape* (plan-shape.ts) rather than per plan: a plan
 * differing from another only in the values of plain comparisons binds its
 * values into the other's SQL. Those values' markers are objects (`Slot`), so
 * no client value can be mistaken for one.
 */
import type { Knex } from 'knex';
import type { CompareCondition } from '../query/plan';
import type { PlanShape } from './plan-shape';

export interface Statement {
  sql: string;
  bindings: unknown[];
}

interface Template extends Statement {
  /** Binding index of each marker, in marker order. */
  slots: number[];
  /** Binding index and shape slot of each place a comparison's value goes. */
  valueSlots: Array<readonly [binding: number, slot: number]>;
}

/** Where the value of one of the shape's comparisons goes: knex binds it like any value. */
export class Slot {
  constructor(readonly index: number) {}
}

/** The marker each slotted comparison binds instead of its value while a template is built (conditions.ts). */
export type SlotMarkers = ReadonlyMap<CompareCondition, Slot>;

/**
 * Safe integers no client value is expected to equal; searched from the end, after every filter binding. Only
 * the template's build sees them: a client's value never meets a marker.
 */
const FIRST_MARKER = 7_301_948_576_121;
const markers = (count: number): number[] => Array.from({ length: count }, (_, index) => FIRST_MARKER + index);

/**
 * Variants kept per plan. A plan's variants are few (page shapes), but an insert's variant is the set of columns
 * the client sent, which a client chooses: past this many, the plan's templates start over.
 */
const MAX_VARIANTS = 256;
/** Read statements kept by shape: a shape holding a text match's term is one per term, so this bounds them. */
const MAX_SHAPES = 2000;
const NO_SLOTS: SlotMarkers = new Map();

export class StatementTemplates {
  private readonly byPlan = new WeakMap<object, Map<string, Template>>();
  private readonly byShape = new Map<string, Template>();

  /**
   * The statement for `plan` in shape `variant`, with `values` bound where
   * `build` used the markers it was given (one marker per value, same order).
   */
  bind(plan: object, variant: string, values: readonly unknown[], build: (markers: readonly number[]) => Knex.QueryBuilder): Statement {
    let templates = this.byPlan.get(plan);
    if (!templates) {
      templates = new Map();
      this.byPlan.set(plan, templates);
    }
    let template = templates.get(variant);
    if (!template) {
      template = compileTemplate(build(markers(values.length)), values.length, 0);
      if (templates.size >= MAX_VARIANTS) templates.clear();
      templates.set(variant, template);
    }
    return filled(template, values, []);
  }

  /**
   * The statement of a read of `shape` in shape `variant`: as `bind`, and
   * `build` also gets the marker each of the shape's slotted comparisons binds
   * instead of its value (`SqlContext.slots`).
   */
  bindShape(shape: PlanShape, variant: string, values: readonly unknown[], build: (markers: readonly number[], slots: SlotMarkers) => Knex.QueryBuilder): Statement {
    const key = `${variant}\u0000${shape.key}`;
    let template = this.byShape.get(key);
    if (!template) {
      const slots = shape.slots.length === 0 ? NO_SLOTS : new Map(shape.slots.map((condition, index) => [condition, new Slot(index)]));
      template = compileTemplate(build(markers(values.length), slots), values.length, shape.slots.length);
      if (this.byShape.size >= MAX_SHAPES) this.byShape.clear();
      this.byShape.set(key, template);
    }
    return filled(template, values, shape.values);
  }
}

function filled(template: Template, values: readonly unknown[], slotValues: readonly unknown[]): Statement {
  if (template.slots.length === 0 && template.valueSlots.length === 0) return template;
  const bindings = template.bindings.slice();
  template.slots.forEach((slot, index) => {
    bindings[slot] = values[index];
  });
  for (const [binding, slot] of template.valueSlots) bindings[binding] = slotValues[slot];
  return { sql: template.sql, bindings };
}

function compileTemplate(builder: Knex.QueryBuilder, markerCount: number, slotCount: number): Template {
  const native = builder.toSQL().toNative();
  const bindings = [...native.bindings];
  const slots: number[] = [];
  for (let marker = markerCount - 1; marker >= 0; marker--) {
    const slot = bindings.lastIndexOf(FIRST_MARKER + marker);
    if (slot < 0) throw new Error(`statement template lost marker ${marker}: ${native.sql}`);
    slots.unshift(slot);
  }
  const valueSlots: Array<readonly [number, number]> = [];
  const seen = new Set<number>();
  bindings.forEach((binding, index) => {
    if (!(binding instanceof Slot)) return;
    valueSlots.push([index, binding.index]);
    seen.add(binding.index);
  });
  // A slotted comparison written with its own value would bind that value for every plan of the shape.
  if (seen.size !== slotCount) throw new Error(`statement template lost a comparison's slot: ${native.sql}`);
  return { sql: native.sql, bindings, slots, valueSlots };
}

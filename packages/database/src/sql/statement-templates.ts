/**
 * Compiled SQL per read plan. A plan (`ReadPlan`) does not change once
 * compiled, and the content API reuses plans across requests, so the SQL text
 * and the filter bindings of a plan are the same on every call: only the id
 * or the page differs. Each statement is built once through knex with marker
 * values in those places; later calls copy the bindings and put their values
 * where the markers were. Inserts use it too (sql/writer.ts): per table and
 * set of columns written.
 */
import type { Knex } from 'knex';

export interface Statement {
  sql: string;
  bindings: unknown[];
}

interface Template extends Statement {
  /** Binding index of each marker, in marker order. */
  slots: number[];
}

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

export class StatementTemplates {
  private readonly byPlan = new WeakMap<object, Map<string, Template>>();

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
      template = compileTemplate(build(markers(values.length)), values.length);
      if (templates.size >= MAX_VARIANTS) templates.clear();
      templates.set(variant, template);
    }
    if (template.slots.length === 0) return template;
    const bindings = template.bindings.slice();
    template.slots.forEach((slot, index) => {
      bindings[slot] = values[index];
    });
    return { sql: template.sql, bindings };
  }
}

function compileTemplate(builder: Knex.QueryBuilder, markerCount: number): Template {
  const native = builder.toSQL().toNative();
  const bindings = [...native.bindings];
  const slots: number[] = [];
  for (let marker = markerCount - 1; marker >= 0; marker--) {
    const slot = bindings.lastIndexOf(FIRST_MARKER + marker);
    if (slot < 0) throw new Error(`statement template lost marker ${marker}: ${native.sql}`);
    slots.unshift(slot);
  }
  return { sql: native.sql, bindings, slots };
}

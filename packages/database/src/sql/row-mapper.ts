/**
 * Rows → entities: column values to attribute names, raw values decoded per
 * type. Reads give value lists in select order (`Connection.values`): the
 * field list's columns from `offset` on, after the statement's own columns
 * (`__source`, `__order`). A write's RETURNING row is an object keyed by
 * column. The plan for a field list is built once and cached, since most
 * requests use an entity's default field list.
 */
import type { Dialect } from '../connection/config';
import type { Row } from '../connection/connection';
import type { ColumnField } from '../metadata/metadata';
import { decoderFor, type Decoder } from '../query/codec';

type Entity = { id: number } & Record<string, unknown>;

type FieldPlan = Array<{ name: string; column: string; decode: Decoder }>;

export class RowMapper {
  private readonly plans = new WeakMap<ColumnField[], FieldPlan>();

  constructor(private readonly dialect: Dialect) {}

  /** Value lists (`Connection.values`) whose fields start at `offset`. */
  mapValues(fields: ColumnField[], rows: unknown[][], offset = 0): Entity[] {
    const plan = this.plan(fields);
    return rows.map((row) => mapValuesWith(plan, row, offset));
  }

  /** A row keyed by column (a write's RETURNING row). */
  mapRow(fields: ColumnField[], row: Row): Entity {
    return mapWith(this.plan(fields), row);
  }

  private plan(fields: ColumnField[]): FieldPlan {
    let plan = this.plans.get(fields);
    if (!plan) {
      plan = fields.map((field) => ({ name: field.name, column: field.column, decode: decoderFor(field, this.dialect) }));
      this.plans.set(fields, plan);
    }
    return plan;
  }
}

function mapWith(plan: FieldPlan, row: Row): Entity {
  const entity: Record<string, unknown> = {};
  for (const field of plan) entity[field.name] = field.decode(row[field.column]);
  return entity as Entity;
}

function mapValuesWith(plan: FieldPlan, row: unknown[], offset: number): Entity {
  const entity: Record<string, unknown> = {};
  for (let index = 0; index < plan.length; index++) entity[plan[index]!.name] = plan[index]!.decode(row[offset + index]);
  return entity as Entity;
}

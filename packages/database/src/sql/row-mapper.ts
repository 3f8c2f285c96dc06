/**
 * Rows → entities: column names to attribute names, raw values decoded per
 * type. The plan for a field list is built once and cached, since most
 * requests use an entity's default field list.
 */
import type { Dialect } from '../connection/config';
import type { Row } from '../connection/connection';
import type { ColumnField } from '../metadata/metadata';
import { decoderFor, type Decoder } from '../query/codec';

type Entity = { id: number } & Record<string, unknown>;

/** Read options for rows this mapper decodes (PostgreSQL then hands timestamps over as text, see postgres-driver.ts). */
export const DECODED = { decoded: true } as const;
type FieldPlan = Array<{ name: string; column: string; decode: Decoder }>;

export class RowMapper {
  private readonly plans = new WeakMap<ColumnField[], FieldPlan>();

  constructor(private readonly dialect: Dialect) {}

  mapRows(fields: ColumnField[], rows: Row[]): Entity[] {
    const plan = this.plan(fields);
    return rows.map((row) => mapWith(plan, row));
  }

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

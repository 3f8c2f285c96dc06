/**
 * What the populate loaders (components-reader, media-reader) share with the
 * entity reader: the entity shape, the part of the reader they call back into
 * for each level, and the all-parents-at-once id list. The reader implements
 * `LevelReader`; the loaders depend on this interface, not on the reader.
 */
import type { Knex } from 'knex';
import type { Connection, Row } from '../connection/connection';
import type { ColumnField } from '../metadata/metadata';
import type { ReadPlan } from '../query/plan';
import type { SqlContext } from './conditions';
import type { SlotMarkers } from './statement-templates';
import type { EntryBudget } from './entry-budget';

export type Entity = { id: number } & Record<string, unknown>;

export interface LevelReader {
  readonly connection: Connection;
  /** A fresh SQL context (aliases, publication state) for one statement of `query`, binding `slots` if given (a template's build). */
  context(query: ReadPlan, slots?: SlotMarkers): SqlContext;
  /** The level's publication state and filters. */
  applyFilters(qb: Knex.QueryBuilder, query: ReadPlan, ctx: SqlContext): void;
  /** Value lists (`Connection.values`) as entities, their fields from `offset` on (after the statement's own columns). */
  mapValues(fields: ColumnField[], rows: unknown[][], offset: number): Entity[];
  /** Loads what `query` populates onto `entities` (the next levels), charging them to `budget`. */
  populate(entities: Entity[], query: ReadPlan, budget?: EntryBudget): Promise<void>;
  /**
   * The statement reading one level of `query` for the parents `ids`, at most
   * `rowCap` rows. `build` makes it with knex, calling `whereIds(qb, column)`
   * where the id list goes, limiting to the `rowCap` it is given and making its
   * context with `slots`; it runs once per shape of `query` (plan-shape.ts) and
   * `variant`, which names everything else the SQL depends on (the link table,
   * the attribute); later calls only bind the new ids and filter values
   * (statement-templates.ts).
   */
  levelStatement(query: ReadPlan, variant: string, ids: number[], rowCap: number | undefined, build: LevelBuilder): LevelStatement;
}

export type LevelBuilder = (
  whereIds: (qb: Knex.QueryBuilder, column: string) => void,
  rowCap: number | undefined,
  slots: SlotMarkers | undefined,
) => Knex.QueryBuilder;
export type LevelStatement = Knex.QueryBuilder | { sql: string; bindings: unknown[] };

export function uniqueIds(entities: Entity[]): number[] {
  return [...new Set(entities.map((entity) => entity.id))];
}

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
import type { EntryBudget } from './entry-budget';

export type Entity = { id: number } & Record<string, unknown>;

export interface LevelReader {
  readonly connection: Connection;
  /** A fresh SQL context (aliases, publication state) for one statement of `query`. */
  context(query: ReadPlan): SqlContext;
  /** The level's publication state and filters. */
  applyFilters(qb: Knex.QueryBuilder, query: ReadPlan, ctx: SqlContext): void;
  /** Value lists (`Connection.values`) as entities, their fields from `offset` on (after the statement's own columns). */
  mapValues(fields: ColumnField[], rows: unknown[][], offset: number): Entity[];
  /** Loads what `query` populates onto `entities` (the next levels), charging them to `budget`. */
  populate(entities: Entity[], query: ReadPlan, budget?: EntryBudget): Promise<void>;
  /**
   * The statement reading one level for the parents `ids`, at most `rowCap`
   * rows. `build` makes it with knex, calling `whereIds(qb, column)` where the
   * id list goes and limiting to the `rowCap` it is given; it runs once per
   * `key` and `variant` (a plan's populate item does not change), later calls
   * only bind the new ids (statement-templates.ts).
   */
  levelStatement(key: object, variant: string, ids: number[], rowCap: number | undefined, build: LevelBuilder): LevelStatement;
}

export type LevelBuilder = (whereIds: (qb: Knex.QueryBuilder, column: string) => void, rowCap: number | undefined) => Knex.QueryBuilder;
export type LevelStatement = Knex.QueryBuilder | { sql: string; bindings: unknown[] };

export function uniqueIds(entities: Entity[]): number[] {
  return [...new Set(entities.map((entity) => entity.id))];
}

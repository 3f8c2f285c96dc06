/**
 * Writes one relation attribute of one entry through its join table, from
 * either side. The new list is computed in memory (relation-order.ts), then
 * only the difference is written. Where the other side is to-one (oneToOne,
 * or the inverse of a manyToOne), a newly linked target first leaves the
 * entry it was linked to, so both sides always agree. Order columns are
 * renumbered 1..N on both sides for every list the write touched.
 */
import { ValidationError } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { EntityMetadata, Metadata, RelationField } from '../metadata/metadata';
import { parseRelationInput, type RelationOps } from './relation-input';
import { nextList, referencedIds } from './relation-order';
import { advisoryLock, idsForMessage, insertRows, numberOrNull, renumberGroups, updateColumnByRowId, whereIn } from './link-sql';

export type WriteMode = 'create' | 'update';

export class RelationWriter {
  constructor(
    private readonly connection: Connection,
    private readonly metadata: Metadata,
  ) {}

  /** Parses and checks `value` without writing (so every attribute is checked before any write). */
  prepare(field: RelationField, value: unknown): RelationOps {
    return parseRelationInput(field.name, value);
  }

  /** Call once per write, before any `write`, with every relation it will write (see advisoryLock). */
  async lock(fields: RelationField[]): Promise<void> {
    await advisoryLock(this.connection, fields.map((field) => field.joinTable.name));
  }

  /** Call `requireTargets` for every relation of the write first. */
  async write(field: RelationField, id: number, ops: RelationOps, mode: WriteMode): Promise<void> {
    const current = mode === 'create' ? [] : await this.currentList(field, id);
    const next = nextList(current, ops, field.toMany);
    await this.apply(field, id, current, next);
  }

  /**
   * Before an entry is deleted: removes its rows from join tables where the
   * other side keeps an order (the rest cascade), and closes the gaps in those lists.
   */
  async detachAll(entity: EntityMetadata, ids: number[]): Promise<void> {
    const ordered = orderedOnTheOtherSide(entity);
    await this.lock(ordered);
    for (const field of ordered) {
      const join = field.joinTable;
      const inverseOrder = join.inverseOrderColumn!;
      const select = this.connection.knex.from(join.name).distinct(join.inverseJoinColumn);
      const targets = (await this.connection.all(whereIn(this.connection, select, join.joinColumn, ids))).map((row) => Number(row[join.inverseJoinColumn]));
      if (targets.length === 0) continue;
      await this.connection.run(whereIn(this.connection, this.connection.knex(join.name).delete(), join.joinColumn, ids));
      await this.renumber(join.name, join.inverseJoinColumn, inverseOrder, targets);
    }
  }

  /** The locks `detachAll` takes, for a delete to take before it locks the entry's row. */
  async lockOwned(entity: EntityMetadata): Promise<void> {
    await this.lock(orderedOnTheOtherSide(entity));
  }

  /** Target ids of `id`, in this side's order. */
  async currentList(field: RelationField, id: number): Promise<number[]> {
    const join = field.joinTable;
    const qb = this.connection.knex.from(join.name).select(join.inverseJoinColumn).where(join.joinColumn, id);
    if (join.orderColumn) qb.orderBy(join.orderColumn, 'asc');
    qb.orderBy('id', 'asc');
    const rows = await this.connection.all(qb);
    return rows.map((row) => Number(row[join.inverseJoinColumn]));
  }

  /**
   * The ids `ops` links to must exist: a missing one is a 400 naming it. On Postgres the targets found stay
   * key-share locked until commit, so a concurrent delete of one either committed before (and the id is
   * reported missing) or waits for this write (and then removes its join rows too) — never a foreign-key 500.
   */
  async requireTargets(field: RelationField, ops: RelationOps): Promise<void> {
    const ids = referencedIds(ops);
    if (ids.length === 0) return;
    const knex = this.connection.knex;
    const mysql = this.connection.dialect === 'mysql';
    // MySQL: the shared locks go on primary-key records only. Read through a covering secondary index
    // (`published_at`'s holds the id too) they would also lock its records, which a concurrent delete of the
    // target needs, while that delete holds the primary record this write's foreign-key check waits for.
    const qb = knex.from(mysql ? knex.raw('?? FORCE INDEX (PRIMARY)', [field.targetTable]) : field.targetTable).select('id');
    whereIn(this.connection, qb, 'id', ids);
    if (this.connection.dialect === 'postgres') qb.forKeyShare();
    else if (mysql) qb.forShare();
    const found = new Set((await this.connection.all(qb)).map((row) => Number(row.id)));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw ValidationError.forField([field.name], `${field.name}: ${field.target} with id ${idsForMessage(missing)} does not exist`);
    }
  }

  private async apply(field: RelationField, id: number, current: number[], next: number[]): Promise<void> {
    const join = field.joinTable;
    const knex = this.connection.knex;
    // Sets: the lists may hold thousands of ids, and this must stay linear.
    const nextSet = new Set(next);
    const currentSet = new Set(current);
    const removed = current.filter((target) => !nextSet.has(target));
    const added = next.filter((target) => !currentSet.has(target));
    if (removed.length > 0) {
      await this.connection.run(whereIn(this.connection, knex(join.name).delete().where(join.joinColumn, id), join.inverseJoinColumn, removed));
    }
    if (added.length > 0) {
      if (this.otherSideToOne(field)) await this.detachFromOthers(field, id, added);
      const rows = added.map((target) => ({ [join.joinColumn]: id, [join.inverseJoinColumn]: target }));
      await insertRows(this.connection, join.name, rows);
    }
    const reordered = current.length !== next.length || current.some((target, index) => next[index] !== target);
    if (join.orderColumn && reordered) await this.writeOwnOrder(field, id, next);
    if (join.inverseOrderColumn && (added.length > 0 || removed.length > 0)) {
      await this.renumber(join.name, join.inverseJoinColumn, join.inverseOrderColumn, [...added, ...removed]);
    }
  }

  /** True when each target may be linked to only one entry of this side. */
  private otherSideToOne(field: RelationField): boolean {
    if (!field.inverseName) return false;
    const inverse = this.metadata.get(field.target)?.links.get(field.inverseName);
    return inverse?.kind === 'relation' && !inverse.toMany;
  }

  /** Unlinks `targets` from whichever other entries hold them, renumbering those entries' lists. */
  private async detachFromOthers(field: RelationField, id: number, targets: number[]): Promise<void> {
    const join = field.joinTable;
    const knex = this.connection.knex;
    const select = knex.from(join.name).select(join.joinColumn).whereNot(join.joinColumn, id);
    const holders = (await this.connection.all(whereIn(this.connection, select, join.inverseJoinColumn, targets))).map((row) => Number(row[join.joinColumn]));
    if (holders.length === 0) return;
    const remove = knex(join.name).delete().whereNot(join.joinColumn, id);
    await this.connection.run(whereIn(this.connection, remove, join.inverseJoinColumn, targets));
    if (join.orderColumn) await this.renumber(join.name, join.joinColumn, join.orderColumn, [...new Set(holders)]);
  }

  private async writeOwnOrder(field: RelationField, id: number, next: number[]): Promise<void> {
    const join = field.joinTable;
    const rows = await this.connection.all(this.connection.knex.from(join.name).select('id', join.inverseJoinColumn).where(join.joinColumn, id));
    const positions = new Map(next.map((target, index) => [target, index + 1]));
    const values: Array<[number, number]> = rows.map((row) => [Number(row.id), positions.get(Number(row[join.inverseJoinColumn])) ?? next.length + 1]);
    await updateColumnByRowId(this.connection, join.name, join.orderColumn!, values);
  }

  /** Renumbers `orderColumn` 1..N within each group (`groupColumn` in `groups`). */
  async renumber(table: string, groupColumn: string, orderColumn: string, groups: number[]): Promise<void> {
    if (groups.length === 0) return;
    const select = this.connection.knex.from(table).select('id', `${groupColumn} as __group`, `${orderColumn} as __order`);
    const rows = await this.connection.all(whereIn(this.connection, select, groupColumn, groups));
    const changes = renumberGroups(rows.map((row) => ({ id: Number(row.id), group: Number(row.__group), order: numberOrNull(row.__order) })));
    await updateColumnByRowId(this.connection, table, orderColumn, changes);
  }
}

/** Relations whose join rows carry the other side's order: deleting an entry renumbers those lists. */
function orderedOnTheOtherSide(entity: EntityMetadata): RelationField[] {
  return [...entity.links.values()].filter((field): field is RelationField => field.kind === 'relation' && Boolean(field.joinTable.inverseOrderColumn));
}

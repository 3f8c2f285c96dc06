/**
 * Components and dynamic zones, read from Strapi v4's `<table>_components`
 * join table (entity_id, component_id, component_type, field, order): one
 * query per component type per populated attribute, for all parents at once.
 */
import type { ComponentPopulate, ReadPlan } from '../query/plan';
import type { Entity, LevelReader } from './level-reader';
import { uniqueIds } from './level-reader';
import type { EntryBudget } from './entry-budget';

interface PlacedComponent {
  source: number;
  order: number;
  value: Entity;
}

export async function loadComponents(
  reader: LevelReader,
  parents: Entity[],
  name: string,
  item: ComponentPopulate,
  budget: EntryBudget | undefined,
): Promise<void> {
  const joinTable = item.owner.componentJoinTable;
  const placed = new Map<number, PlacedComponent[]>();
  if (joinTable) {
    for (const [uid, query] of item.queries) {
      for (const entry of await loadComponentRows(reader, joinTable, parents, { field: name, uid, query }, budget)) {
        if (item.kind === 'dynamiczone') entry.value = { __component: uid, ...entry.value } as Entity;
        const list = placed.get(entry.source);
        if (list) list.push(entry);
        else placed.set(entry.source, [entry]);
      }
    }
  }
  for (const parent of parents) {
    const values = (placed.get(parent.id) ?? []).sort((a, b) => a.order - b.order).map((entry) => entry.value);
    parent[name] = item.field.repeatable ? values : values[0] ?? null;
  }
}

async function loadComponentRows(
  reader: LevelReader,
  joinTable: string,
  parents: Entity[],
  { field, uid, query }: { field: string; uid: string; query: ReadPlan },
  budget: EntryBudget | undefined,
): Promise<PlacedComponent[]> {
  const statement = reader.levelStatement(query, `component:${joinTable}:${field}:${uid}`, uniqueIds(parents), budget?.rowCap, (whereIds, rowCap, slots) => {
    const ctx = reader.context(query, slots);
    const qb = ctx.knex
      .from({ j: joinTable })
      .innerJoin({ t0: query.entity.tableName }, 't0.id', 'j.component_id')
      .select('j.entity_id as __source', 'j.order as __order', ...query.fields.map((column) => `t0.${column.column}`))
      .where('j.field', field)
      .where('j.component_type', uid)
      .orderBy('j.entity_id', 'asc')
      .orderBy('j.order', 'asc');
    whereIds(qb, 'j.entity_id');
    reader.applyFilters(qb, query, ctx);
    return rowCap === undefined ? qb : qb.limit(rowCap);
  });
  // Each row: the parent's id (`__source`), the component's place (`__order`), then the fields.
  const rows = await reader.connection.values(statement);
  const values = reader.mapValues(query.fields, rows, 2);
  const placed = rows.map((row, index) => ({ source: Number(row[0]), order: Number(row[1] ?? 0), value: values[index]! }));
  budget?.chargeLevel(parents, placed.map((entry) => [entry.source, entry.value] as const));
  await reader.populate(values, query, budget);
  return placed;
}

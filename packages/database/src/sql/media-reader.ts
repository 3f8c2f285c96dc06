/**
 * Media attributes, read as Strapi v4 stores them: `files` rows linked
 * through the polymorphic `files_related_morphs` table (file_id, related_id,
 * related_type, field, order). One query per populated media attribute.
 */
import type { MediaPopulate } from '../query/plan';
import { MORPH_TABLE } from '../metadata/media';
import type { Entity, LevelReader } from './level-reader';
import { uniqueIds } from './level-reader';
import type { EntryBudget } from './entry-budget';

export async function loadMedia(reader: LevelReader, parents: Entity[], name: string, item: MediaPopulate, budget: EntryBudget | undefined): Promise<void> {
  const buckets = item.query ? await loadFiles(reader, parents, name, item, budget) : new Map<number, Entity[]>();
  for (const parent of parents) {
    const files = buckets.get(parent.id) ?? [];
    parent[name] = item.multiple ? files : files[0] ?? null;
  }
}

async function loadFiles(
  reader: LevelReader,
  parents: Entity[],
  name: string,
  item: MediaPopulate,
  budget: EntryBudget | undefined,
): Promise<Map<number, Entity[]>> {
  const query = item.query!;
  const statement = reader.levelStatement(query, `media:${item.owner.uid}:${name}`, uniqueIds(parents), budget?.rowCap, (whereIds, rowCap, slots) => {
    const ctx = reader.context(query, slots);
    const qb = ctx.knex
      .from({ m: MORPH_TABLE })
      .innerJoin({ t0: query.entity.tableName }, 't0.id', 'm.file_id')
      .select('m.related_id as __source', ...query.fields.map((field) => `t0.${field.column}`))
      .where('m.related_type', item.owner.uid)
      .where('m.field', name)
      .orderBy('m.related_id', 'asc')
      .orderBy('m.order', 'asc')
      .orderBy('m.id', 'asc');
    whereIds(qb, 'm.related_id');
    reader.applyFilters(qb, query, ctx);
    return rowCap === undefined ? qb : qb.limit(rowCap);
  });
  // Each row: the parent's id (`__source`), then the fields.
  const rows = await reader.connection.values(statement);
  const files = reader.mapValues(query.fields, rows, 1);
  budget?.chargeLevel(parents, rows.map((row, index) => [Number(row[0]), files[index]!] as const));
  await reader.populate(files, query, budget);
  const buckets = new Map<number, Entity[]>();
  rows.forEach((row, index) => {
    const source = Number(row[0]);
    const list = buckets.get(source);
    if (list) list.push(files[index]);
    else buckets.set(source, [files[index]]);
  });
  return buckets;
}

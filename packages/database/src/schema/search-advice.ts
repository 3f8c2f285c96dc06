/**
 * Large content types whose text attributes are searched by a scan: a substring filter (`$containsi`, `_q`, …) on a
 * type without the search option reads every row, which at tens of thousands of entries costs more than the rest of
 * the request together (docs/benchmarks.md). Checked once at boot, so requests pay nothing: each `api::` collection
 * type with a text attribute and no search option is counted up to LARGE_TYPE rows (a LIMIT bounds the walk however
 * big the table).
 */
import type { Connection } from '../connection/connection';
import type { Metadata } from '../metadata/metadata';

/** Rows from which a scan per search is worth the boot's warning. */
export const LARGE_TYPE = 50_000;
const TEXT_TYPES = new Set(['string', 'text', 'richtext']);

/** The uids of `api::` collection types with at least LARGE_TYPE rows, text attributes and no search option. */
export async function largeUnsearchedTypes(connection: Connection, metadata: Metadata): Promise<string[]> {
  const found: string[] = [];
  for (const entity of metadata.values()) {
    if (!entity.uid.startsWith('api::') || entity.kind !== 'collectionType' || entity.search) continue;
    if (!entity.publicColumns.some((field) => TEXT_TYPES.has(field.type))) continue;
    const knex = connection.knex;
    const head = knex.from(entity.tableName).select(knex.raw('1')).limit(LARGE_TYPE).as('head');
    const row = await connection.first(knex.from(head).count({ count: '*' }));
    if (Number(row?.count ?? 0) >= LARGE_TYPE) found.push(entity.uid);
  }
  return found;
}

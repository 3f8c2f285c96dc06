/**
 * Reads over link tables that plugins need and the query engine has no
 * parameter for: how many entries link to each target of a relation (a role's
 * user count), and which entries link to given files (`populate=related`).
 * Typed, and planned from the metadata: no plugin writes SQL for them.
 */
import type { Connection } from '../connection/connection';
import type { EntityMetadata } from '../metadata/metadata';
import { MORPH_TABLE } from '../metadata/media';
import { ConfigurationError } from '@tessera/errors';

/** One link from a file to an entry of any type, in the order of the file's list. */
export interface FileLink {
  fileId: number;
  relatedId: number;
  relatedType: string;
}

/** Per target id of relation `attribute` of `entity`: how many entries link to it (targets without links are absent). */
export async function countLinksPerTarget(connection: Connection, entity: EntityMetadata, attribute: string): Promise<Map<number, number>> {
  const link = entity.links.get(attribute);
  if (!link || link.kind !== 'relation') throw new ConfigurationError(`${entity.uid}.${attribute} is not a relation`);
  const { name, inverseJoinColumn } = link.joinTable;
  const rows = await connection.all(connection.knex(name).select({ target: inverseJoinColumn }).count({ count: '*' }).groupBy(inverseJoinColumn));
  return new Map(rows.map((row) => [Number(row.target), Number(row.count)]));
}

/** The entries linked to each of `fileIds`, by file, in each file's link order. */
export async function fileLinks(connection: Connection, fileIds: number[]): Promise<FileLink[]> {
  if (fileIds.length === 0) return [];
  const rows = await connection.all(
    connection
      .knex(MORPH_TABLE)
      .select('file_id', 'related_id', 'related_type')
      .whereIn('file_id', fileIds)
      .orderBy([{ column: 'file_id' }, { column: 'order' }, { column: 'id' }]),
  );
  return rows.map((row) => ({ fileId: Number(row.file_id), relatedId: Number(row.related_id), relatedType: String(row.related_type) }));
}

/** Removes every link to file `fileId` (media fields pointing at it become empty). */
export async function unlinkFile(connection: Connection, fileId: number): Promise<void> {
  await connection.run(connection.knex(MORPH_TABLE).where('file_id', fileId).delete());
}

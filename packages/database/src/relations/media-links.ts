/**
 * The media layer's one read the query engine has no parameter for: which
 * entries link to given files (`populate=related` on files), from the morph
 * table the kernel owns (metadata/media.ts). Strapi reads it through the
 * file type's polymorphic `related`, which Tessera's file type does not
 * declare.
 */
import type { Connection } from '../connection/connection';
import { MORPH_TABLE } from '../metadata/media';

/** One link from a file to an entry of any type, in the order of the file's list. */
export interface FileLink {
  fileId: number;
  relatedId: number;
  relatedType: string;
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

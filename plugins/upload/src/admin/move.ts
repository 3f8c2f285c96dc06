/**
 * Moving folders and files into a folder (the media library's "move", Strapi's
 * `bulk-move`): in one transaction, the parent links of the folders and the
 * folder links of the files are replaced, the paths below each moved folder
 * rewritten, and the files' `folderPath` set — a fixed number of statements
 * per moved folder, whatever it holds. The links are written into the join
 * tables directly, as Strapi writes them (no order value).
 */
import type { App } from '@tessera/core';
import { FILE_UID, type Entity } from '@tessera/database';
import { FOLDER_UID } from '../contract';
import { childPath, rewritePaths } from './folder-paths';
import { FOLDER_FIELDS } from './folders';

export interface MoveRequest {
  destinationFolderId: number | null;
  folderIds: number[];
  fileIds: number[];
}

export interface MoveResult {
  folders: Entity[];
  files: Entity[];
  totalFolderNumber: number;
  totalFileNumber: number;
}

/** The checked request (folder-checks.ts) carried out; answers the moved rows as they now are. */
export async function moveMany(app: App, request: MoveRequest): Promise<MoveResult> {
  const { destinationFolderId, folderIds, fileIds } = request;
  const folders = app.db.query(FOLDER_UID);
  const files = app.db.query(FILE_UID);
  let totalFolderNumber = 0;
  let totalFileNumber = 0;
  await app.db.transaction(async () => {
    await app.db.lock(['upload:folders']);
    const movedFolders = folderIds.length > 0 ? await folders.findMany({ where: { id: { $in: folderIds } }, select: ['id', 'pathId', 'path'] }) : [];
    const movedFiles = fileIds.length > 0 ? await files.findMany({ where: { id: { $in: fileIds } }, select: ['id'] }) : [];
    const destination = destinationFolderId === null ? null : await folders.findOne({ where: { id: destinationFolderId }, select: ['path'] });
    const destinationPath = destination ? String(destination.path) : '/';
    if (movedFolders.length > 0) {
      await relink(app, FOLDER_UID, 'parent', movedFolders.map((folder) => folder.id), destinationFolderId);
      for (const folder of movedFolders) {
        const counts = await rewritePaths(app, String(folder.path), childPath(destinationPath, Number(folder.pathId)));
        totalFolderNumber += counts.folders;
        totalFileNumber += counts.files;
      }
    }
    if (movedFiles.length > 0) {
      const ids = movedFiles.map((file) => file.id);
      await relink(app, FILE_UID, 'folder', ids, destinationFolderId);
      const { column } = app.db.entity(FILE_UID).columns.get('folderPath')!;
      await app.db.connection(app.db.entity(FILE_UID).tableName).whereIn('id', ids).update(column, destinationPath);
    }
  });
  const [foldersNow, filesNow] = await Promise.all([
    folderIds.length > 0 ? folders.findMany({ where: { id: { $in: folderIds } }, select: FOLDER_FIELDS, orderBy: [{ id: 'asc' }] }) : [],
    fileIds.length > 0 ? files.findMany({ where: { id: { $in: fileIds } }, orderBy: [{ id: 'asc' }] }) : [],
  ]);
  return { folders: foldersNow, files: filesNow, totalFolderNumber, totalFileNumber };
}

/** The to-one relation `attribute` of rows `ids` now points at `target` (null: at nothing): one delete, one insert. */
export async function relink(app: App, uid: string, attribute: string, ids: number[], target: number | null): Promise<void> {
  const link = app.db.entity(uid).links.get(attribute);
  if (!link || link.kind !== 'relation') throw new Error(`${uid}.${attribute} is not a relation`);
  const { name, joinColumn, inverseJoinColumn } = link.joinTable;
  await app.db.connection(name).whereIn(joinColumn, ids).delete();
  if (target !== null) await app.db.connection(name).insert(ids.map((id) => ({ [joinColumn]: id, [inverseJoinColumn]: target })));
}

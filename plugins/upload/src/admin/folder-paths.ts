/**
 * Strapi's materialised folder paths: a folder's `path` is its ancestors'
 * `pathId`s and its own, joined by `/` (`/1/3`); a file's `folderPath` is its
 * folder's `path` (`/` at the root). Moving a folder rewrites the prefix of
 * every path below it, folders and files, in two statements whatever the tree
 * holds (as Strapi does), inside the caller's transaction.
 */
import type { App } from '@tessera/core';
import { FILE_UID } from '@tessera/database';
import { FOLDER_UID } from '../contract';

/** Strapi's `joinBy('/', parent, pathId)`: `/` + `3` → `/3`, `/1` + `3` → `/1/3`. */
export function childPath(parentPath: string, pathId: number): string {
  return `${parentPath.endsWith('/') ? parentPath.slice(0, -1) : parentPath}/${pathId}`;
}

/** Whether `candidate` is `folder` or below it (Strapi's `isFolderOrChild`). */
export function isFolderOrChild(candidate: Record<string, unknown>, folder: Record<string, unknown>): boolean {
  const path = String(folder.path);
  const other = String(candidate.path);
  return other === path || other.startsWith(`${path}/`);
}

/**
 * Every folder path and file folderPath equal to `from` or below it now starts with `to` instead. Paths hold only
 * digits and slashes, so `LIKE` needs no escaping.
 */
export async function rewritePaths(app: App, from: string, to: string): Promise<{ folders: number; files: number }> {
  const knex = app.db.connection;
  const targets = [
    { entity: app.db.entity(FOLDER_UID), attribute: 'path' },
    { entity: app.db.entity(FILE_UID), attribute: 'folderPath' },
  ];
  const counts: number[] = [];
  for (const { entity, attribute } of targets) {
    const column = entity.columns.get(attribute)!.column;
    const replaced = knex.raw(prefixReplacement(app.db.dialect), [to, column, from.length + 1]);
    counts.push(
      await knex(entity.tableName)
        .where(column, from)
        .orWhere(column, 'like', `${from}/%`)
        .update(column, replaced),
    );
  }
  return { folders: counts[0], files: counts[1] };
}

/** `to` followed by what comes after the old prefix, in each dialect's words. */
function prefixReplacement(dialect: string): string {
  if (dialect === 'sqlite') return '? || SUBSTR(??, ?)';
  if (dialect === 'postgres') return 'CONCAT(?::TEXT, SUBSTRING(?? FROM ?::INTEGER))';
  return 'CONCAT(?, SUBSTRING(??, ?))';
}

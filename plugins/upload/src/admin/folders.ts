/**
 * The folder service (`plugin::upload.folder`, Strapi's name): folders in
 * Strapi's `upload_folders` layout — `pathId` (unique, one more than the
 * largest), `path` (ancestors' pathIds, folder-paths.ts), the parent link in
 * `upload_folders_parent_links` — with the admin as `createdBy`/`updatedBy`.
 * Every write holds one advisory lock, so two creates never take the same
 * pathId and a name is checked unique in its parent with nothing in between.
 */
import type { App } from '@tessera/core';
import { FILE_UID, type Entity } from '@tessera/database';
import { FOLDER_UID } from '../contract';
import { childPath, rewritePaths } from './folder-paths';

const LOCK = 'upload:folders';
/** What a folder answers (Strapi's columns, in its order). */
export const FOLDER_FIELDS = ['id', 'name', 'pathId', 'path', 'createdAt', 'updatedAt'];
/** A folder list is not paged by the panel (`pagination[pageSize]=-1`); this bounds one answer. */
export const MAX_FOLDERS = 1000;

export interface Editor {
  id: number;
}

export interface FolderNode {
  id: number;
  name: string;
  children: FolderNode[];
}

export function folderService(app: App) {
  const folders = () => app.db.query(FOLDER_UID);

  const service = {
    async exists(where: Record<string, unknown>): Promise<boolean> {
      return (await folders().count({ where })) > 0;
    },

    findById(id: number): Promise<Entity | null> {
      return folders().findOne({ where: { id }, select: FOLDER_FIELDS });
    },

    /** Strapi's `getFolderPath`: where a file in folder `id` lives (`/` for none). */
    async pathOf(id: number | null | undefined): Promise<string> {
      if (id === null || id === undefined) return '/';
      const folder = await folders().findOne({ where: { id }, select: ['path'] });
      return folder ? String(folder.path) : '/';
    },

    /** A new folder under `parent` (null: the root). The caller checked the name and the parent (folder-checks.ts). */
    async create(input: { name: string; parent: number | null }, editor?: Editor): Promise<Entity> {
      return app.db.transaction(async () => {
        await app.db.lock([LOCK]);
        const [last] = await folders().findMany({ select: ['pathId'], orderBy: [{ pathId: 'desc' }], limit: 1 });
        const pathId = Number(last?.pathId ?? 0) + 1;
        const parentPath = await service.pathOf(input.parent);
        const authorship = editor ? { createdBy: editor.id, updatedBy: editor.id } : {};
        const created = await folders().create({
          data: { name: input.name, pathId, path: childPath(parentPath, pathId), parent: input.parent, ...authorship },
          select: FOLDER_FIELDS,
        });
        return created;
      });
    },

    /**
     * A new name and/or parent (null: the root). A move rewrites the paths of the folder, of the folders below it
     * and of their files; null when the folder does not exist.
     */
    async update(id: number, input: { name?: string; parent?: number | null }, editor?: Editor): Promise<Entity | null> {
      return app.db.transaction(async () => {
        await app.db.lock([LOCK]);
        const existing = await folders().findOne({ where: { id }, select: ['id', 'pathId', 'path'] });
        if (!existing) return null;
        const data: Record<string, unknown> = { updatedAt: new Date() };
        if (input.name !== undefined) data.name = input.name;
        if (editor) data.updatedBy = editor.id;
        if (input.parent !== undefined) {
          data.parent = input.parent;
          await rewritePaths(app, String(existing.path), childPath(await service.pathOf(input.parent), Number(existing.pathId)));
        }
        return folders().update({ where: { id }, data, select: FOLDER_FIELDS });
      });
    },

    /**
     * Folders `ids`, the folders below them and every file in them, deleted; answers the folders named (as they
     * were) and how many folders and files went.
     */
    async deleteByIds(ids: number[]): Promise<{ folders: Entity[]; totalFolderNumber: number; totalFileNumber: number }> {
      if (ids.length === 0) return { folders: [], totalFolderNumber: 0, totalFileNumber: 0 };
      const named = await folders().findMany({ where: { id: { $in: ids } }, select: FOLDER_FIELDS, orderBy: [{ id: 'asc' }] });
      if (named.length === 0) return { folders: [], totalFolderNumber: 0, totalFileNumber: 0 };
      const below = (attribute: string) => ({ $or: named.flatMap((folder) => [{ [attribute]: { $eq: folder.path } }, { [attribute]: { $startsWith: `${String(folder.path)}/` } }]) });
      const files = await app.db.query(FILE_UID).findMany({ where: below('folderPath'), select: ['id'] });
      const upload = app.plugin('upload')!.service('upload');
      for (const file of files) await upload.remove(file.id);
      const { count } = await app.db.transaction(async () => {
        await app.db.lock([LOCK]);
        return folders().deleteMany({ where: below('path') });
      });
      return { folders: named, totalFolderNumber: count, totalFileNumber: files.length };
    },

    /** Every folder as a tree (`{ id, name, children }`), each level sorted by name: two queries. */
    async getStructure(): Promise<FolderNode[]> {
      const rows = await folders().findMany({ select: ['id', 'name'], populate: { parent: { select: ['id'] } }, orderBy: [{ id: 'asc' }] });
      const nodes = new Map<number, FolderNode & { parentId: number | null }>();
      for (const row of rows) {
        const parent = row.parent as { id?: number } | null | undefined;
        nodes.set(row.id, { id: row.id, name: String(row.name), children: [], parentId: parent?.id ?? null });
      }
      const roots: FolderNode[] = [];
      for (const node of nodes.values()) (node.parentId === null ? roots : nodes.get(node.parentId)?.children ?? roots).push(node);
      const finish = (list: FolderNode[]): FolderNode[] =>
        [...list].sort(byName).map((node) => ({ id: node.id, name: node.name, children: finish(node.children) }));
      return finish(roots);
    },
  };
  return service;
}

/** lodash's `sortBy('name')`: code-unit order, stable. */
function byName(a: FolderNode, b: FolderNode): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export type FolderService = ReturnType<typeof folderService>;

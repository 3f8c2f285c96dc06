/**
 * The media library's folder routes (Strapi's `admin-folder` and
 * `admin-folder-file` controllers): folders with their children and files
 * counted, one folder (its parent chain when the panel asks for it), create,
 * rename or move, the whole tree, and the bulk delete and move of folders
 * and files together.
 */
import type Koa from 'koa';
import { NotFoundError, ValidationError } from '@tessera/errors';
import { requestBody, type KernelContext } from '@tessera/core';
import type { Entity } from '@tessera/database';
import { FOLDER_UID } from '../contract';
import { ACTIONS, checkFiles, editorOf } from './access';
import { isRecord, rowId } from './checks';
import { checkBulkDelete, checkBulkMove, checkCreateFolder, checkUpdateFolder } from './folder-checks';
import { joinsRelation, parseSort } from './file-query';
import { FOLDER_FIELDS, folderService, MAX_FOLDERS } from './folders';
import { moveMany } from './move';
import { adminFile, folderOnly } from './present';

const FOLDER_RELATIONS = ['parent', 'children', 'files', 'createdBy', 'updatedBy'];
const COUNTS = { children: { count: true }, files: { count: true } };
/** How deep `populate[parent][populate][parent]…` may go (the panel asks for two levels, for its breadcrumbs). */
const MAX_PARENT_DEPTH = 10;

const folderNotFound = () => new NotFoundError('folder not found');

/** The panel's `populate` of a folder: only its parent chain, `*`/true or nested `{ populate: { parent } }`. */
function parentPopulate(populate: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!isRecord(populate) || populate.parent === undefined) return undefined;
  if (depth >= MAX_PARENT_DEPTH) throw ValidationError.forField(['populate'], `populate goes at most ${MAX_PARENT_DEPTH} parents deep`);
  const inner = isRecord(populate.parent) ? parentPopulate(populate.parent.populate, depth + 1) : undefined;
  return { parent: { select: FOLDER_FIELDS, ...(inner ? { populate: inner } : {}) } };
}

/** A folder as answered: its columns, then what was populated (parents, then counts), in Strapi's order. */
function presentFolder(folder: Entity, sortedFirst: string[] = []): Record<string, unknown> {
  const own = folderOnly(folder);
  const out: Record<string, unknown> = {};
  // Strapi's list answers the sorted columns first when its query joins a relation (it selects them first then).
  for (const key of sortedFirst) if (key in own) out[key] = own[key];
  Object.assign(out, own);
  if ('parent' in folder) out.parent = folder.parent ? presentFolder(folder.parent as Entity) : null;
  for (const key of ['children', 'files']) if (key in folder) out[key] = folder[key];
  return out;
}

export function adminFolderControllers({ app }: KernelContext) {
  const service = () => folderService(app);
  const folders = () => app.db.query(FOLDER_UID);

  const folderController = {
    async findOne(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      const query = ctx.query as Record<string, unknown>;
      const folder = id === null ? null : await folders().findOne({ where: { id }, select: FOLDER_FIELDS, populate: { ...parentPopulate(query.populate), ...COUNTS } });
      if (!folder) throw folderNotFound();
      ctx.body = { data: presentFolder(folder) };
    },

    async find(ctx: Koa.Context) {
      const query = ctx.query as Record<string, unknown>;
      const orderBy = parseSort(query.sort);
      if (query.filters !== undefined && !isRecord(query.filters)) throw ValidationError.forField(['filters'], 'filters must be an object');
      const found = await folders().findMany({
        ...(isRecord(query.filters) ? { filters: query.filters } : {}),
        select: FOLDER_FIELDS,
        orderBy,
        populate: { ...parentPopulate(query.populate), ...COUNTS },
        limit: MAX_FOLDERS,
      });
      const sorted = joinsRelation(query.filters, FOLDER_RELATIONS) ? orderBy.flatMap((part) => Object.keys(part)) : [];
      ctx.body = { data: found.map((folder) => presentFolder(folder, sorted)) };
    },

    async create(ctx: Koa.Context) {
      const input = await checkCreateFolder(app, requestBody(ctx));
      ctx.body = { data: presentFolder(await service().create(input, editorOf(ctx))) };
    },

    async update(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      const existing = id === null ? null : await service().findById(id);
      if (id === null || !existing) throw folderNotFound();
      const input = await checkUpdateFolder(app, id, requestBody(ctx));
      const updated = await service().update(id, input, editorOf(ctx));
      if (!updated) throw folderNotFound();
      ctx.body = { data: presentFolder(updated) };
    },

    async getStructure(ctx: Koa.Context) {
      ctx.body = { data: await service().getStructure() };
    },
  };

  const folderFileController = {
    async deleteMany(ctx: Koa.Context) {
      const { fileIds, folderIds } = checkBulkDelete(requestBody(ctx));
      await checkFiles(app, ctx, ACTIONS.update, fileIds);
      const upload = app.plugin('upload')!.service('upload');
      const files = fileIds.length > 0 ? await upload.findRows(fileIds) : [];
      for (const file of files) await upload.remove(file.id);
      const { folders: deleted } = await service().deleteByIds(folderIds);
      ctx.body = { data: { files: await Promise.all(files.map((file) => adminFile(app, file))), folders: deleted.map((folder) => presentFolder(folder)) } };
    },

    async moveMany(ctx: Koa.Context) {
      const request = await checkBulkMove(app, requestBody(ctx));
      await checkFiles(app, ctx, ACTIONS.update, request.fileIds);
      const moved = await moveMany(app, request);
      ctx.body = { data: { files: await Promise.all(moved.files.map((file) => adminFile(app, file))), folders: moved.folders.map((folder) => presentFolder(folder)) } };
    },
  };

  return { 'admin-folder': folderController, 'admin-folder-file': folderFileController };
}

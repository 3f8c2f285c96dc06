/**
 * The media library's file routes (Strapi's `admin-file` and `admin-upload`
 * controllers): list, one file, delete, and `POST /upload` — new files, or,
 * with `?id=`, a file's new content (replace) or only its info (name,
 * alternative text, caption, folder). Writes go through the upload service
 * (providers, formats, lifecycles, webhooks) with the admin as creator/editor.
 */
import type Koa from 'koa';
import { ApplicationError, ForbiddenError, NotFoundError } from '@tessera/errors';
import type { KernelContext } from '@tessera/core';
import { FILE_UID, type Entity } from '@tessera/database';
import type { ParsedUpload } from '../multipart';
import { ACTIONS, checkFile, editorOf, fileConditions, mayAct } from './access';
import { readAdminFileInfo } from './admin-file-info';
import { rowId } from './checks';
import { joinsRelation, readFileListQuery } from './file-query';
import { FOLDER_FIELDS } from './folders';
import { adminFile, creatorsOf } from './present';

const FILE_RELATIONS = ['folder', 'createdBy', 'updatedBy', 'related'];

/** Strapi's `NotFoundError()` with its default words, which these routes answer. */
const entityNotFound = () => new NotFoundError('Entity not found');

export function adminFileControllers({ app }: KernelContext) {
  const upload = () => app.plugin('upload')!.service('upload');
  const columns = () => [...app.db.entity(FILE_UID).publicColumns.map((column) => column.name), 'folderPath', 'createdBy'];

  /** A file with its folder and creator id (Strapi's `findEntityAndCheckPermissions`): 404, then 403. */
  async function findAndCheck(ctx: Koa.Context, action: typeof ACTIONS.read | typeof ACTIONS.update, rawId: unknown): Promise<{ file: Entity; creatorId: number | null }> {
    const id = rowId(Array.isArray(rawId) ? rawId[0] : rawId);
    const file = id === null ? null : await app.db.query(FILE_UID).findOne({ where: { id }, select: columns(), populate: { folder: { select: FOLDER_FIELDS } } });
    if (!file) throw entityNotFound();
    const creatorId = typeof file.createdBy === 'number' ? file.createdBy : null;
    await checkFile(app, ctx, action, file.id);
    return { file, creatorId };
  }

  async function withCreator(file: Entity, creatorId: number | null): Promise<Record<string, unknown> | null> {
    return (await creatorsOf(app, [creatorId])).get(creatorId ?? -1) ?? null;
  }

  const fileController = {
    async find(ctx: Koa.Context) {
      if (!mayAct(ctx, ACTIONS.read)) throw new ForbiddenError();
      const query = readFileListQuery(ctx.query as Record<string, unknown>);
      const conditions = fileConditions(ctx, ACTIONS.read);
      const filters = conditions && query.filters ? { $and: [query.filters, conditions] } : (conditions ?? query.filters);
      const { results, pagination } = await app.db.query(FILE_UID).findPage({
        ...(filters ? { filters } : {}),
        ...(query._q ? { _q: query._q } : {}),
        orderBy: query.orderBy,
        select: columns().filter((name) => name !== 'createdBy'),
        populate: { folder: { select: FOLDER_FIELDS } },
        page: query.page,
        pageSize: query.pageSize,
      });
      // Strapi's query joins for a relation filter or a condition (its createdBy is a relation): sorted columns first.
      const sortedFirst = conditions !== undefined || joinsRelation(query.filters, FILE_RELATIONS) ? query.orderBy.flatMap((part) => Object.keys(part)) : [];
      const files = await Promise.all(results.map((row) => adminFile(app, row, { folder: (row.folder as Entity | null) ?? null, signed: true, sortedFirst })));
      ctx.body = { results: files, pagination };
    },

    async findOne(ctx: Koa.Context) {
      const { file, creatorId } = await findAndCheck(ctx, ACTIONS.read, ctx.params.id);
      ctx.body = await adminFile(app, file, { creator: await withCreator(file, creatorId), folder: (file.folder as Entity | null) ?? null, signed: true });
    },

    async destroy(ctx: Koa.Context) {
      const { file, creatorId } = await findAndCheck(ctx, ACTIONS.update, ctx.params.id);
      const answer = await adminFile(app, file, { creator: await withCreator(file, creatorId), folder: (file.folder as Entity | null) ?? null });
      await upload().remove(file.id);
      ctx.body = answer;
    },
  };

  const uploadController = {
    /** Strapi's dispatch: files → upload (or replace with `?id=`); no file (or an empty one) with `?id=` → info. */
    async upload(ctx: Koa.Context) {
      const { files, fields } = ctx.state.upload as ParsedUpload;
      const id = ctx.query.id;
      const given = files.filter((file) => file.size > 0 || files.length > 1);
      if (given.length === 0) {
        if (id !== undefined && id !== '') return uploadController.updateFileInfo(ctx, id, fields);
        throw new ApplicationError('Files are empty');
      }
      if (id !== undefined && id !== '') return uploadController.replaceFile(ctx, id, given, fields);
      return uploadController.uploadFiles(ctx, given, fields);
    },

    async updateFileInfo(ctx: Koa.Context, id: unknown, fields: ParsedUpload['fields']) {
      const { file } = await findAndCheck(ctx, ACTIONS.update, id);
      const info = await readAdminFileInfo(app, fields.fileInfo);
      // Strapi keeps a value the body leaves out or sends as null.
      for (const key of ['name', 'alternativeText', 'caption'] as const) if (info[key] === null) delete info[key];
      ctx.body = await adminFile(app, await upload().updateInfoRow(file.id, info, editorOf(ctx)));
    },

    async replaceFile(ctx: Koa.Context, id: unknown, files: ParsedUpload['files'], fields: ParsedUpload['fields']) {
      const { file } = await findAndCheck(ctx, ACTIONS.update, id);
      if (files.length > 1) throw new ApplicationError('Cannot replace a file with multiple ones');
      const info = await readAdminFileInfo(app, fields.fileInfo);
      const row = await upload().replaceRow(file.id, files[0], info, editorOf(ctx));
      ctx.body = await adminFile(app, row, { signed: true });
    },

    async uploadFiles(ctx: Koa.Context, files: ParsedUpload['files'], fields: ParsedUpload['fields']) {
      if (!mayAct(ctx, ACTIONS.create)) throw new ForbiddenError();
      const info = await readAdminFileInfo(app, fields.fileInfo);
      // One fileInfo object: it describes the first file, as in Strapi.
      const rows = await upload().uploadRows(files, [info], null, editorOf(ctx));
      ctx.body = await Promise.all(rows.map((row) => adminFile(app, row, { signed: true })));
    },
  };

  return { 'admin-file': fileController, 'admin-upload': uploadController };
}

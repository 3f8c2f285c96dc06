/**
 * The content-API controller (`plugin::upload.content-api`): its action
 * names are the permission actions `plugin::upload.content-api.upload`,
 * `.find`, `.findOne`, `.destroy`. Answers are bare file objects and arrays,
 * as Strapi's upload plugin gives them (no `{ data, meta }`).
 */
import type Koa from 'koa';
import { ValidationError } from '@tessera/errors';
import { Caller, type KernelContext } from '@tessera/core';
import { parseFileInfos } from '../file-info';
import { linkTarget } from '../link';
import type { ParsedUpload } from '../multipart';
import { fileId } from '../services/upload';

export default ({ app }: KernelContext) => {
  const service = () => app.plugin('upload')!.service('upload');
  return {
    /** POST /api/upload: new files; `?id=` replaces one file's content, or only its info. */
    async upload(ctx: Koa.Context) {
      const { files, fields } = ctx.state.upload as ParsedUpload;
      const infos = parseFileInfos(fields.fileInfo);
      const id = ctx.query.id;
      if (id !== undefined) {
        const target = fileId(Array.isArray(id) ? id[0] : id);
        if (files.length > 1) throw new ValidationError('Only one file can replace a file');
        ctx.body = files.length === 1 ? await service().replace(target, files[0], infos[0] ?? {}) : await service().updateInfo(target, infos[0] ?? {});
        return;
      }
      if (files.length === 0) throw new ValidationError('Files are empty');
      const link = await linkTarget(app, fields, Caller.ofRequest(ctx.state));
      ctx.body = await service().upload(files, infos, link);
    },

    async find(ctx: Koa.Context) {
      ctx.body = await service().findMany({ caller: Caller.ofRequest(ctx.state), params: ctx.query as Record<string, unknown> });
    },

    async findOne(ctx: Koa.Context) {
      ctx.body = await service().findOne(ctx.params.id, { caller: Caller.ofRequest(ctx.state), params: ctx.query as Record<string, unknown> });
    },

    async destroy(ctx: Koa.Context) {
      ctx.body = await service().remove(fileId(ctx.params.id));
    },
  };
};

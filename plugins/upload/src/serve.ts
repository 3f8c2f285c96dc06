/**
 * `GET /uploads/<hash><ext>` for the local provider: the file streamed from
 * `public/uploads`, typed by its extension (which the upload chose to agree
 * with the sniffed type), with `X-Content-Type-Options: nosniff` always and
 * `Content-Disposition: attachment` for anything a browser could run.
 * Only plain stored names are served: no traversal, no dot files (temp files).
 * Self-contained, so it keeps working next to a global static middleware.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { lookup } from 'mime-types';
import { NotFoundError } from '@tessera/errors';
import { isActiveContent } from './serve-policy';

const STORED_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?$/;

export function serveUploads(uploadsDir: string): (ctx: Koa.Context) => Promise<void> {
  return async (ctx) => {
    const name = String(ctx.params.name ?? '');
    if (!STORED_NAME.test(name)) throw new NotFoundError();
    const file = path.join(uploadsDir, name);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      throw new NotFoundError();
    }
    if (!stat.isFile()) throw new NotFoundError();
    const mime = lookup(name) || 'application/octet-stream';
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (isActiveContent(mime)) {
      ctx.set('Content-Disposition', 'attachment');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    }
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.lastModified = stat.mtime;
    if (ctx.method === 'HEAD') {
      ctx.status = 200;
    } else {
      ctx.body = fs.createReadStream(file);
    }
    ctx.type = mime;
    ctx.length = stat.size;
  };
}

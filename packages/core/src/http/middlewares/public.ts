/**
 * `strapi::public`: files from the app's `public/` folder, for GET and HEAD
 * only, and only where no route answers: `/api/…` is never looked up and a
 * path a route matches goes to the route. Only regular files are served — no
 * directory listing, no index pages, no hidden (`.`) names — and the decoded
 * path must stay inside `public/` (`..` in any spelling is refused). Absent
 * when the app has no `public/` folder at boot. `maxAge` is in milliseconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { Builtin } from './builtin';

/** Content-API paths: never shadowed by a file, and not worth a router match or a stat. */
const API_PREFIX = '/api';
const DEFAULT_MAX_AGE_MS = 60_000;

export const publicFiles: Builtin = {
  keys: ['maxAge', 'defaultIndex'],
  create(config, { app, router }) {
    const root = path.join(app.dir, 'public');
    if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) return undefined;
    const cacheControl = `max-age=${Math.floor(Number(config.maxAge ?? DEFAULT_MAX_AGE_MS) / 1000)}`;
    const middleware: Koa.Middleware = async (ctx, next) => {
      if (!mayServe(ctx) || router.match(ctx.path, ctx.method).route) return next();
      const found = await publicFile(root, ctx.path);
      if (!found) return next();
      ctx.status = 200;
      ctx.set('Cache-Control', cacheControl);
      ctx.lastModified = found.stats.mtime;
      ctx.type = path.extname(found.file);
      ctx.length = found.stats.size;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      if (ctx.method === 'GET') ctx.body = fs.createReadStream(found.file);
    };
    return middleware;
  },
};

function mayServe(ctx: Koa.Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  return !(ctx.path === API_PREFIX || ctx.path.startsWith(`${API_PREFIX}/`));
}

/** The regular file under `root` that a URL path names, or undefined. */
async function publicFile(root: string, urlPath: string): Promise<{ file: string; stats: fs.Stats } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.some((segment) => segment.startsWith('.'))) return undefined;
  const file = path.join(root, ...segments);
  if (!file.startsWith(root + path.sep)) return undefined;
  const stats = await fs.promises.stat(file).catch(() => undefined);
  return stats?.isFile() ? { file, stats } : undefined;
}

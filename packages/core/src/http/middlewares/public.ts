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
import { restPrefix } from '../routes';

const DEFAULT_MAX_AGE_MS = 60_000;

export const publicFiles: Builtin = {
  keys: ['maxAge', 'defaultIndex'],
  create(config, { app, router }) {
    const root = path.join(app.dir, 'public');
    if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) return undefined;
    const apiPrefix = restPrefix(app);
    const cacheControl = `max-age=${Math.floor(Number(config.maxAge ?? DEFAULT_MAX_AGE_MS) / 1000)}`;
    const middleware: Koa.Middleware = async (ctx, next) => {
      if (!mayServe(ctx, apiPrefix)) return next();
      const segments = pathSegments(ctx.path);
      // A route owns its paths in every spelling: `/%75ploads/x` or `/uploads%2Fx` must not reach the
      // file behind the upload route as a plain static file (its serve policy would be skipped).
      if (!segments || router.match(ctx.path, ctx.method).route || router.match(`/${segments.join('/')}`, ctx.method).route) return next();
      const found = await publicFile(root, segments);
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

/** Content-API paths (`api.rest.prefix`): never shadowed by a file, and not worth a router match or a stat. */
function mayServe(ctx: Koa.Context, apiPrefix: string): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  return apiPrefix === '' || !(ctx.path === apiPrefix || ctx.path.startsWith(`${apiPrefix}/`));
}

/**
 * The decoded segments of a URL path, or undefined when the path is not in
 * canonical form: an empty segment (`//`), an encoded `/` or `\\`, a NUL,
 * a dot name (hidden files, `.`, `..`), or bad percent-encoding.
 */
export function pathSegments(urlPath: string): string[] | undefined {
  const raw = urlPath.split('/').slice(1);
  if (raw.length === 0 || raw.some((segment) => segment === '')) return undefined;
  const segments: string[] = [];
  for (const segment of raw) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (/[/\\\0]/.test(decoded) || decoded.startsWith('.')) return undefined;
    segments.push(decoded);
  }
  return segments;
}

/** The regular file under `root` that path segments name, or undefined. */
async function publicFile(root: string, segments: string[]): Promise<{ file: string; stats: fs.Stats } | undefined> {
  const file = path.join(root, ...segments);
  if (!file.startsWith(root + path.sep)) return undefined;
  const stats = await fs.promises.stat(file).catch(() => undefined);
  return stats?.isFile() ? { file, stats } : undefined;
}

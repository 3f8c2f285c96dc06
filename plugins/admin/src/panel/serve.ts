/**
 * The built panel (`<app>/build`, made by `tessera build`) served at the admin
 * path, as Strapi's `serveAdminPanel` serves it: files by name, and any other
 * GET under the path answered with `index.html`, so the panel's own routes
 * (`/admin/auth/login`, `/admin/content-manager/…`) load it. Hashed chunks
 * (`main.7e7d8df5.js`) never change under their name: cached for a year,
 * immutable; `index.html` names the current chunks: never cached.
 *
 * Nothing is served when `admin.serveAdminPanel` is false (the panel is hosted
 * elsewhere); while there is no build, the panel's paths are 404 (a build
 * finished later is served at once, without a restart). The admin API answers
 * either way: its routes are mounted first, so they win over the fallback.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { lookup } from 'mime-types';
import { NotFoundError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { adminPanelSettings } from './settings';

/** webpack's `[name].[contenthash:8].js` and the assets' `[hash]` names. */
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
const SAFE_SEGMENT = /^[A-Za-z0-9_~@+-][A-Za-z0-9._~@+-]*$/;

export function servePanel(app: App): void {
  const settings = adminPanelSettings(app.dir, (key) => app.config.get(key));
  if (!settings.serveAdminPanel) return;
  if (!fs.existsSync(path.join(settings.buildDir, 'index.html'))) {
    app.log.info(`admin: no panel build in ${path.relative(app.dir, settings.buildDir) || '.'}/ yet (tessera build makes it); the admin API answers without it`);
  }
  const handler = panelFiles(settings.buildDir);
  const base = settings.adminPath || '/';
  app.server.routes([
    { method: 'GET', path: base, handler, config: { auth: false } },
    { method: 'GET', path: `${settings.adminPath}/(.*)`, handler, config: { auth: false } },
  ]);
}

function panelFiles(buildDir: string): (ctx: Koa.Context) => Promise<void> {
  return async (ctx) => {
    const rest = String(ctx.params[0] ?? '');
    const file = fileFor(buildDir, rest);
    const stat = file ? await fs.promises.stat(file).catch(() => undefined) : undefined;
    if (file && stat?.isFile()) return send(ctx, file, stat, HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    const index = path.join(buildDir, 'index.html');
    const indexStat = await fs.promises.stat(index).catch(() => undefined);
    if (!indexStat) throw new NotFoundError();
    return send(ctx, index, indexStat, 'no-cache');
  };
}

/** The build's file a URL path names, or undefined: plain segments only (no `..`, no dot files). */
function fileFor(buildDir: string, urlPath: string): string | undefined {
  if (urlPath === '') return undefined;
  const segments = urlPath.split('/');
  if (!segments.every((segment) => SAFE_SEGMENT.test(segment))) return undefined;
  return path.join(buildDir, ...segments);
}

function send(ctx: Koa.Context, file: string, stat: fs.Stats, cacheControl: string): void {
  ctx.set('Cache-Control', cacheControl);
  ctx.type = lookup(file) || 'application/octet-stream';
  ctx.length = stat.size;
  ctx.lastModified = stat.mtime;
  ctx.status = 200;
  ctx.body = fs.createReadStream(file);
}

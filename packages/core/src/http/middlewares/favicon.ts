/**
 * `strapi::favicon`: answers `GET /favicon.ico` with the app's icon, read once
 * at boot: `path` (relative to the app folder) or, by default, `favicon.png`
 * then `favicon.ico`. An app with no icon file gets nothing (browsers' icon
 * requests then end in the usual 404). `maxAge` is in milliseconds, as in Strapi.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { ConfigurationError } from '@tessera/errors';
import type { Builtin } from './builtin';

const DEFAULT_FILES = ['favicon.png', 'favicon.ico'];
const DAY_MS = 86_400_000;

export const favicon: Builtin = {
  keys: ['path', 'maxAge'],
  create(config, { app, file: configFile }) {
    const file = iconFile(app.dir, config.path, configFile);
    if (!file) return undefined;
    const icon = fs.readFileSync(file);
    const cacheControl = `public, max-age=${Math.floor(Number(config.maxAge ?? DAY_MS) / 1000)}`;
    const middleware: Koa.Middleware = (ctx, next) => {
      if (ctx.path !== '/favicon.ico' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
      ctx.set('Cache-Control', cacheControl);
      ctx.type = path.extname(file);
      ctx.body = icon;
    };
    return middleware;
  },
};

function iconFile(appDir: string, configured: unknown, configFile: string): string | undefined {
  if (configured !== undefined) {
    const file = path.resolve(appDir, String(configured));
    if (!fs.existsSync(file)) throw new ConfigurationError(`strapi::favicon: no file at ${file}`, configFile);
    return file;
  }
  return DEFAULT_FILES.map((name) => path.join(appDir, name)).find((file) => fs.existsSync(file));
}

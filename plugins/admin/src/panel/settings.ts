/**
 * Where the panel lives, read from the app's config as Strapi 4.26.2 reads it
 * (`getConfigUrls`, `admin.serveAdminPanel`): `admin.url` (default `/admin`:
 * a path served by this server, or an absolute URL for a separate admin host,
 * whose path is the base then), `server.url` (the backend URL the panel calls;
 * empty: its own origin), `admin.serveAdminPanel` (default true).
 */
import path from 'node:path';

export interface AdminPanelSettings {
  /** `/admin`: where the built files are served, and the base of every asset URL. */
  adminPath: string;
  /** `admin.url` as configured (an absolute URL when the panel has its own host), without a trailing slash. */
  adminUrl: string;
  /** What the panel's requests go to (`STRAPI_ADMIN_BACKEND_URL`); '' is its own origin. */
  backendUrl: string;
  serveAdminPanel: boolean;
  /** `<app>/build`, as Strapi lays it out. */
  buildDir: string;
}

type ConfigReader = <T>(key: string) => T | undefined;

export function adminPanelSettings(appDir: string, get: ConfigReader): AdminPanelSettings {
  const adminUrl = String(get<string>('admin.url') ?? '/admin');
  const serverUrl = String(get<string>('server.url') ?? '').replace(/\/$/, '');
  return {
    adminPath: pathOf(adminUrl),
    adminUrl: withoutTrailingSlashes(adminUrl),
    backendUrl: serverUrl,
    serveAdminPanel: get<boolean>('admin.serveAdminPanel') !== false,
    buildDir: path.join(appDir, 'build'),
  };
}

/** The path part of `admin.url`, without its trailing slash (`/` → ''); Strapi's `getAbsoluteUrl` rule. */
function pathOf(url: string): string {
  const pathname = /^https?:\/\//i.test(url) ? new URL(url).pathname : url.startsWith('/') ? url : `/${url}`;
  return withoutTrailingSlashes(pathname);
}

/** Trailing slashes cut in a loop: `/\/+$/` backtracks polynomially on a long run of slashes (the ReDoS scan refuses it). */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end -= 1;
  return text.slice(0, end);
}

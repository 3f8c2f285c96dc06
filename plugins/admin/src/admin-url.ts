/**
 * The panel's absolute URL, as Strapi 4.26.2's `getAbsoluteAdminUrl` makes it
 * for links it mails: `admin.url` when absolute; else under `server.url` when
 * that is absolute; else `http://<server.host>:<server.port><path>` (the host
 * `localhost` in development when it listens on 127.0.0.1 or 0.0.0.0).
 */
import type { App } from '@tessera/core';

/** lodash's `trim(text, '/ ')`. */
function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === '/' || text[start] === ' ')) start += 1;
  while (end > start && (text[end - 1] === '/' || text[end - 1] === ' ')) end -= 1;
  return text.slice(start, end);
}

const isAbsolute = (url: string) => url.startsWith('http');

export function absoluteAdminUrl(app: App): string {
  let serverUrl = trimSlashes(String(app.config.get<string>('server.url') ?? ''));
  if (isAbsolute(serverUrl)) serverUrl = trimSlashes(new URL(serverUrl).toString());
  else if (serverUrl !== '') serverUrl = `/${serverUrl}`;
  const configured = trimSlashes(String(app.config.get<string>('admin.url') ?? '/admin'));
  const adminUrl = isAbsolute(configured) ? trimSlashes(new URL(configured).toString()) : `${serverUrl}/${configured}`;
  if (isAbsolute(adminUrl)) return adminUrl;
  const host = String(app.config.get<string>('server.host') ?? 'localhost');
  const hostname = (app.config.get<string>('environment') ?? process.env.NODE_ENV ?? 'development') === 'development' && ['127.0.0.1', '0.0.0.0'].includes(host) ? 'localhost' : host;
  return `http://${hostname}:${String(app.config.get<number>('server.port') ?? 1337)}${adminUrl}`;
}

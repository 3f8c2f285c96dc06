/**
 * The admin-side suites' app: the users-permissions test app (fixture.ts) as a Strapi app with `@strapi/admin`
 * (which turns the admin on), its first admin registered (a Super Admin), and Strapi 4.26.2's recorded answers
 * (strapi-4.26.2-admin-settings.json, recorded on the peer by the same requests).
 */
import { startApp, type TestApp, type TestDialect } from '@tessera/testing';
import { recording, upFiles, type UpAppOptions } from './fixture';
import RECORDED from './strapi-4.26.2-admin-settings.json';

export interface Exchange {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  contentType?: string;
  response: any;
}

/** The recorded exchange of this name. */
export function recorded(name: string): Exchange {
  const exchange = (RECORDED.exchanges as Exchange[]).find((candidate) => candidate.name === name);
  if (!exchange) throw new Error(`no recorded exchange "${name}"`);
  return exchange;
}

export const ADMIN = { email: 'ada@example.com', password: 'Passw0rd!x', firstname: 'Ada', lastname: 'Admin' };

export async function startAdminApp(dialect: TestDialect, options: UpAppOptions = {}): Promise<{ app: TestApp; admin: string }> {
  const files = { ...upFiles(options), 'package.json': { name: 'up-admin-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2' } } };
  const app = recording(
    await startApp({ dialect, files, config: { admin: { auth: { secret: 'up-admin-test-secret' } }, ...(options.serverConfig ? { server: options.serverConfig } : {}) } }),
  );
  const registered = await app.post('/admin/register-admin', ADMIN);
  if (registered.status !== 200) throw new Error(`register-admin: ${registered.status} ${registered.text}`);
  return { app, admin: registered.body.data.token as string };
}

/** A response body with every ISO timestamp as `<timestamp>`, as the recordings keep them. */
export function normalised(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => (typeof item === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(item) ? '<timestamp>' : item));
}

/**
 * The app, admin and helpers of the API-token and webhook tests: the admin
 * test app plus `article` and `tag` (the actions the recordings grant custom
 * tokens exist), an API-token salt, and the recordings' normalisation
 * (timestamps, access keys, the receiver's origin).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp, type TestDialect } from '@tessera/testing';
import { ADMIN_APP_FILES } from './fixture';

const collection = (singular: string, plural: string, attributes: object) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: false },
  attributes,
});

export const SETTINGS_APP_FILES = {
  ...ADMIN_APP_FILES,
  'src/api/article/content-types/article/schema.json': collection('article', 'articles', { title: { type: 'string' } }),
  'src/api/tag/content-types/tag/schema.json': collection('tag', 'tags', { name: { type: 'string' } }),
};

export const ADMIN = { email: 'rec@example.com', password: 'Recorder123', firstname: 'Rec', lastname: 'Order' };

/** Starts the app (`admin`: more of config/admin) and registers the admin; answers the app and the admin's JWT. */
export async function startSettingsApp(dialect: TestDialect, server: Record<string, unknown> = {}, admin: Record<string, unknown> = {}): Promise<{ app: TestApp; jwt: string }> {
  const app = await startApp({
    dialect,
    files: SETTINGS_APP_FILES,
    config: { admin: { auth: { secret: 'admin-test-secret' }, apiToken: { salt: 'settings-test-salt' }, ...admin }, server },
  });
  const registered = await app.post('/admin/register-admin', ADMIN);
  if (registered.status !== 200) throw new Error(`register-admin answered ${registered.status}`);
  return { app, jwt: registered.body.data.token as string };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** As the recordings were normalised: ISO dates, access keys and the receiver's origin replaced by markers. */
export function normalise(value: unknown, origin?: string, key?: string): unknown {
  if (typeof value === 'string') {
    if (ISO.test(value)) return '<date>';
    if (key === 'accessKey') return '<accessKey>';
    return origin ? value.split(origin).join('<receiver>') : value;
  }
  if (Array.isArray(value)) return value.map((item) => normalise(item, origin));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, normalise(item, origin, name)]));
  return value;
}

/** The recordings' receiver: /ok answers 200 "ok", /fail 500 "receiver broke", /teapot 418 "short and stout". */
export class RecordingReceiver {
  readonly requests: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<RecordingReceiver> {
    let receiver: RecordingReceiver | undefined;
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        receiver!.requests.push({ path: request.url ?? '', headers: request.headers, body });
        const path = request.url ?? '';
        const [status, text] = path.startsWith('/fail') ? [500, 'receiver broke'] : path.startsWith('/teapot') ? [418, 'short and stout'] : [200, 'ok'];
        response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
      });
    });
    receiver = new RecordingReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return receiver;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A recorded request and Strapi's answer. */
export interface RecordedCall {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

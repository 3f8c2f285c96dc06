/**
 * strapi-plugin-io: a socket.io server on `strapi.server.httpServer`. A
 * client joins a room when it connects (its API token's, its user's role's,
 * or the public role's, found through `admin::api-token`, users-permissions'
 * jwt and user services and `strapi.query`); the plugin's `strapi.db.lifecycles`
 * subscribers then emit `<singularName>:<create|update|delete>` to each room
 * whose permissions allow that action (`strapi.contentAPI.permissions.engine`),
 * with the entry cleaned by the real `@strapi/utils` sanitizer and shaped as
 * the REST answer (`{ data: { id, attributes }, meta }`). A client of the
 * real socket.io-client package listens, as a front end would.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

/** The part of socket.io-client's socket the test uses. */
interface ClientSocket {
  connected: boolean;
  on(event: string, listener: (...args: any[]) => void): void;
  once(event: string, listener: (...args: any[]) => void): void;
  emit(event: string, ...args: unknown[]): void;
  disconnect(): void;
}
type Connect = (url: string, options: { auth?: Record<string, string>; transports: string[]; reconnection: boolean }) => ClientSocket;

/** A connected client that records what it receives, by event name. */
async function connect(app: TestApp, auth?: Record<string, string>): Promise<{ socket: ClientSocket; received: Map<string, unknown[]> }> {
  const { io } = createRequire(path.join(app.dir, 'package.json'))('socket.io-client') as { io: Connect };
  const socket = io(app.url, { auth, transports: ['websocket'], reconnection: false });
  const received = new Map<string, unknown[]>();
  for (const event of ['article:create', 'article:update', 'article:delete', 'pong', 'welcome']) {
    socket.on(event, (payload: unknown) => received.set(event, [...(received.get(event) ?? []), payload]));
  }
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error: Error) => reject(error));
  });
  return { socket, received };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

export const SOCKET_IO: EcosystemSuite = {
  title: 'strapi-plugin-io@2.0.6',
  // Every Strapi app has @strapi/utils (a dependency of @strapi/strapi); the plugin requires it as a peer.
  packages: { 'strapi-plugin-io': '2.0.6', 'socket.io-client': '4.8.1', '@strapi/utils': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    'config/permissions.js': `module.exports = {
  public: ['api::article.article.find', 'api::article.article.findOne'],
  authenticated: ['api::article.article.find', 'api::article.article.create'],
};
`,
    // Its documentation's configuration: the types to emit, and a socket event handler.
    'config/plugins.js': `module.exports = ({ env }) => ({
  io: {
    enabled: true,
    config: {
      contentTypes: ['api::article.article'],
      events: [
        { name: 'connection', handler: ({ strapi }, socket) => socket.emit('welcome', { rooms: [...socket.rooms].filter((room) => room !== socket.id) }) },
        { name: 'ping', handler: ({ strapi }, socket, message) => socket.emit('pong', { message, plugin: typeof strapi.$io.raw }) },
      ],
    },
  },
});
`,
  },
  tests: {
    "emits each write to the rooms allowed to see it, shaped as the REST answer": async (app) => {
      const { accessKey } = await app.app.apiTokens.create({ name: 'Live Feed', type: 'full-access' });
      const full = await connect(app, { strategy: 'api-token', token: accessKey });
      const everyone = await connect(app);
      const registered = await app.post('/api/auth/local/register', { username: 'listener', email: 'listener@example.com', password: 'Passw0rd!' });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      const member = await connect(app, { strategy: 'jwt', token: registered.body.jwt });
      try {
        await until(() => [full, everyone, member].every((client) => client.received.has('welcome')));
        expect(full.received.get('welcome')).to.deep.equal([{ rooms: ['io-token-live-feed'] }]);
        expect(everyone.received.get('welcome')).to.deep.equal([{ rooms: ['io-role-public'] }]);
        expect(member.received.get('welcome')).to.deep.equal([{ rooms: ['io-role-authenticated'] }]);

        const token = await app.fullAccessToken();
        const created = await app.post('/api/articles', { data: { title: 'Live', slug: 'live' } }, { token });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const { id, attributes } = created.body.data;
        await until(() => full.received.has('article:create') && member.received.has('article:create'));
        // The row the database's create answered: its columns, no relation or component (none was populated).
        const row = { title: 'Live', slug: 'live', createdAt: attributes.createdAt, updatedAt: attributes.updatedAt };
        expect(full.received.get('article:create')).to.deep.equal([{ data: { id, attributes: row }, meta: {} }]);
        // The authenticated role may create articles, so its room hears of creates; the public role may not.
        expect(member.received.get('article:create')).to.deep.equal([{ data: { id, attributes: row }, meta: {} }]);

        const updated = await app.put(`/api/articles/${id}`, { data: { title: 'Livelier' } }, { token });
        expect(updated.status).to.equal(200);
        await until(() => full.received.has('article:update'));
        expect(full.received.get('article:update')).to.deep.equal([
          { data: { id, attributes: { ...row, title: 'Livelier', updatedAt: updated.body.data.attributes.updatedAt } }, meta: {} },
        ]);
        expect((await app.delete(`/api/articles/${id}`, { token })).status).to.equal(200);
        await until(() => full.received.has('article:delete'));
        expect(full.received.get('article:delete')).to.deep.equal([
          { data: { id, attributes: { ...row, title: 'Livelier', updatedAt: updated.body.data.attributes.updatedAt } }, meta: {} },
        ]);
        await settle();
        expect([...everyone.received.keys()]).to.deep.equal(['welcome']);
        // Neither update nor delete is the authenticated role's.
        expect([...member.received.keys()]).to.deep.equal(['welcome', 'article:create']);

        full.socket.emit('ping', 'hello');
        await until(() => full.received.has('pong'));
        expect(full.received.get('pong')).to.deep.equal([{ message: 'hello', plugin: 'function' }]);
      } finally {
        for (const client of [full, everyone, member]) client.socket.disconnect();
      }
    },
    'refuses a connection whose token is not valid': async (app) => {
      await connect(app, { strategy: 'api-token', token: 'not-a-token' }).then(
        () => expect.fail('connected'),
        (error: Error) => expect(error.message).to.equal('Invalid credentials'),
      );
    },
  },
};

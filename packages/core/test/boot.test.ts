import http from 'node:http';
import { expect } from 'chai';
import type { App, Plugin } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import { EXAMPLE_APP, bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';

eachDatabase('example app boots and serves', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
  });
  after(() => app.stop());

  it('answers an empty list with page meta', async () => {
    const response = await app.get('/api/articles');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await app.get('/api/nope');
    expect(response.status).to.equal(404);
    const hint = 'no route GET /api/nope; the closest content-API route is GET /api/pages';
    expect(response.body).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: { hint } } });
  });
});

/** A content type small enough to boot fast. */
const NOTE_FILES = {
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  },
};

/** Records every lifecycle call, in order, in `calls`. */
function recordingPlugin(name: string, calls: string[], dependencies?: string[]): Plugin {
  return {
    name,
    dependencies,
    register: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push(`${name}.register`);
    },
    bootstrap: () => {
      calls.push(`${name}.bootstrap`);
    },
    destroy: () => {
      calls.push(`${name}.destroy`);
    },
  };
}

/** An app entry (src/index.ts) that reports its calls through a global list. */
const ENTRY = `
const calls = () => ((globalThis as any).__tesseraBootCalls ??= []);
export default {
  register({ app }) { calls().push('app.register:' + app.contentTypes.has('api::note.note')); },
  bootstrap({ app }) { calls().push('app.bootstrap:' + typeof app.db.query); },
  destroy() { calls().push('app.destroy'); },
};
`;

eachDatabase('boot and shutdown', (dialect) => {
  const globals = globalThis as { __tesseraBootCalls?: string[] };

  it('runs register, bootstrap and destroy of plugins (dependencies first) and of the app, in order', async () => {
    const calls: string[] = [];
    globals.__tesseraBootCalls = calls;
    // `beta` is given before `alpha` but depends on it: alpha must go first.
    const beta = recordingPlugin('beta', calls, ['alpha']);
    const alpha = recordingPlugin('alpha', calls);
    const hooks: Plugin = {
      name: 'hooks',
      register({ app }) {
        app.hooks.on('app:registered', () => void calls.push('hook app:registered'));
        app.hooks.on('app:bootstrapped', () => void calls.push('hook app:bootstrapped'));
        app.hooks.on('server:listening', (target) => void calls.push(`hook server:listening:${(target as App).url !== undefined}`));
        app.hooks.on('app:destroy', () => void calls.push('hook app:destroy'));
      },
    };
    const app = await startApp({ dialect, files: { ...NOTE_FILES, 'src/index.ts': ENTRY }, plugins: [restPlugin, beta, alpha, hooks] });
    expect(calls).to.deep.equal([
      'alpha.register',
      'beta.register',
      'app.register:true',
      'hook app:registered',
      'alpha.bootstrap',
      'beta.bootstrap',
      'app.bootstrap:function',
      'hook app:bootstrapped',
      'hook server:listening:true',
    ]);
    calls.length = 0;
    await app.stop();
    expect(calls).to.deep.equal(['hook app:destroy', 'app.destroy', 'beta.destroy', 'alpha.destroy']);
    delete globals.__tesseraBootCalls;
  });

  it('listens, then destroy closes the HTTP server and the database; destroying twice is safe', async () => {
    const app = await startApp({ dialect, files: NOTE_FILES });
    const token = await app.fullAccessToken();
    const created = await app.post('/api/notes', { data: { text: 'hello' } }, { token });
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes.text).to.equal('hello');

    await app.app.destroy();
    // On a new connection: fetch could send this on the create's pooled keep-alive socket before it has read the
    // server's close of it, and fail with "other side closed" rather than being refused.
    const refused = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      http
        .get(`${app.url}/api/notes`, { agent: false }, (response) => {
          response.resume();
          resolve(undefined);
        })
        .on('error', resolve);
    });
    expect(refused, 'the port still answers after destroy').to.be.instanceOf(Error);
    expect(refused!.code).to.equal('ECONNREFUSED');
    let closed: unknown;
    try {
      await app.app.entityService.count('api::note.note');
    } catch (error) {
      closed = error;
    }
    expect(closed, 'the database still answers after destroy').to.be.instanceOf(Error);
    await app.app.destroy();
    await app.stop();
  });

  it('lets in-flight requests finish when destroyed', async () => {
    const slow: Plugin = {
      name: 'slow',
      register({ app }) {
        app.routes.add('global::slow', {
          type: 'raw',
          routes: [
            {
              method: 'GET',
              path: '/slow',
              handler: async (ctx) => {
                await new Promise((resolve) => setTimeout(resolve, 150));
                ctx.body = { done: true };
              },
              config: { auth: false },
            },
          ],
        });
      },
    };
    const app = await startApp({ dialect, files: NOTE_FILES, plugins: [restPlugin, slow] });
    // A client that keeps idle sockets for ever (Node's agent with keepAlive): the server has to close this one.
    const agent = new http.Agent({ keepAlive: true });
    const pending = new Promise<{ status?: number; connection?: string; body: string; socketClosed: Promise<void> }>((resolve, reject) => {
      http
        .get(`${app.url}/slow`, { agent }, (response) => {
          const socketClosed = new Promise<void>((closed) => response.socket.once('close', () => closed()));
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode, connection: response.headers.connection, body, socketClosed }));
        })
        .on('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await app.stop();
    const response = await pending;
    expect(response.status).to.equal(200);
    expect(JSON.parse(response.body)).to.deep.equal({ done: true });
    // Its answer told the client the socket ends, and the server ended it: the stop did not wait on the client.
    expect(response.connection).to.equal('close');
    await response.socketClosed;
    agent.destroy();
  });

  it('awaits named hooks in registration order; unsubscribing twice removes only that handler', async () => {
    const calls: string[] = [];
    const hooks: Plugin = {
      name: 'hooks',
      register({ app }) {
        app.hooks.on('app:bootstrapped', async () => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          calls.push('first');
        });
        const off = app.hooks.on('app:bootstrapped', () => void calls.push('removed'));
        app.hooks.on('app:bootstrapped', () => void calls.push('second'));
        off();
        off();
      },
    };
    const app = await startApp({ dialect, files: NOTE_FILES, plugins: [restPlugin, hooks] });
    await app.stop();
    expect(calls).to.deep.equal(['first', 'second']);
  });

  it('fails the boot with a clear message when a plugin dependency is missing', async () => {
    const lonely: Plugin = { name: 'lonely', dependencies: ['missing-one'] };
    const error = await bootError({ dialect, files: NOTE_FILES, plugins: [restPlugin, lonely] });
    expect(error.message).to.equal('plugin "lonely" needs plugin "missing-one", which is not enabled');
  });

  it('fails the boot when plugins depend on each other in a circle', async () => {
    const calls: string[] = [];
    const error = await bootError({
      dialect,
      files: NOTE_FILES,
      plugins: [restPlugin, recordingPlugin('a', calls, ['b']), recordingPlugin('b', calls, ['a'])],
    });
    expect(error.message).to.match(/circle: a → b → a/);
    expect(calls).to.deep.equal([]);
  });

  it('fails the boot when a plugin enabled in config/plugins cannot be found', async () => {
    const error = await bootError({ dialect, files: { ...NOTE_FILES, 'config/plugins.ts': 'export default { nowhere: { enabled: true } };' } });
    expect(error.message).to.contain('plugin "nowhere" is enabled but @tessera/plugin-nowhere cannot be found');
  });

  it('runs destroy of what was registered when the boot fails after register', async () => {
    const calls: string[] = [];
    const failing: Plugin = {
      name: 'failing',
      bootstrap() {
        throw new Error('bootstrap exploded');
      },
    };
    const error = await bootError({ dialect, files: NOTE_FILES, plugins: [restPlugin, recordingPlugin('alpha', calls), failing] });
    expect(error.message).to.equal('bootstrap exploded');
    expect(calls).to.deep.equal(['alpha.register', 'alpha.bootstrap', 'alpha.destroy']);
  });
});

describe('an app file requiring a package every Strapi app has from Strapi, which neither the app nor Tessera has [sqlite]', () => {
  it('stops the boot naming the file and the package, with one npm install line for all such packages the app uses', async () => {
    const error = await bootError({
      dialect: 'sqlite',
      files: {
        ...NOTE_FILES,
        'package.json': { name: 'hoisting-app', private: true },
        // @strapi/plugin-graphql's dependencies, hoisted into a Strapi app: Tessera's GraphQL has neither.
        'src/api/note/services/note.js': `const { ApolloError } = require('apollo-server-core');\nmodule.exports = () => ({ ApolloError });\n`,
        'src/api/note/controllers/note.js': `const scalars = require('graphql-scalars');\nmodule.exports = () => ({ scalars });\n`,
      },
    });
    expect(error.message.split(/[\\/]src[\\/]/).pop()).to.equal(
      "api/note/controllers/note.js: requires graphql-scalars, which a Strapi 4.26.2 app has from @strapi/plugin-graphql's dependencies; " +
        "Tessera does not install Strapi's packages. Add what the app's code uses to it: npm install apollo-server-core@3.13.0 graphql-scalars@1.22.2",
    );
  });
});

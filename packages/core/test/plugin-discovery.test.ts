/**
 * Plugins found and run as Strapi v4 finds and runs them: installed packages
 * whose package.json says `"strapi": { "kind": "plugin" }` and that the app
 * lists in its dependencies are enabled by default (`enabled: false` turns one
 * off); their server side is `strapi-server.js`; `global.strapi` is set before
 * their modules load; `strapi.plugin(name)` is one handle with bound methods,
 * `undefined` for a plugin that is not enabled; `@strapi/plugin-i18n` is
 * Tessera's i18n; admin parts are skipped with one log line; content types get
 * Strapi's descriptive fields and table names, and `src/extensions` schemas
 * override a plugin's types.
 */
import { expect } from 'chai';
import type { App } from '@tessera/core';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';

/** A published-style plugin package: CommonJS, reads `strapi` at module load, its server code under ./server. */
const HELLO_PACKAGE: Record<string, string | object> = {
  'node_modules/strapi-plugin-hello/package.json': { name: 'strapi-plugin-hello', version: '1.0.0', strapi: { kind: 'plugin', name: 'hello', displayName: 'Hello' } },
  'node_modules/strapi-plugin-hello/strapi-server.js': `module.exports = require('./server');\n`,
  'node_modules/strapi-plugin-hello/strapi-admin.js': `module.exports = {};\n`,
  'node_modules/strapi-plugin-hello/server/index.js': `'use strict';
// Published plugins read the global at module load.
const loadedWith = strapi;
module.exports = {
  register({ strapi }) { strapi.plugin('hello').registeredWithGlobal = loadedWith === strapi; },
  config: { default: { greeting: 'hello' }, validator() {} },
  contentTypes: {
    item: { schema: { collectionName: 'hello-items', info: { singularName: 'item', pluralName: 'items', displayName: 'Item' }, options: { draftAndPublish: false },
      attributes: { name: { type: 'string' }, localizations: { type: 'relation', relation: 'oneToMany', target: 'plugin::hello.item' } } } },
    note: { schema: { info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, options: { draftAndPublish: false }, attributes: { text: { type: 'string' } } } },
  },
  services: { greeter: ({ strapi }) => ({ greet: () => strapi.plugin('hello').config('greeting') + '!' }) },
  controllers: { greeting: { greet(ctx) { ctx.body = { greeting: strapi.plugin('hello').service('greeter').greet() }; } } },
  routes: {
    'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/greet', handler: 'greeting.greet', config: { auth: false } }] },
    admin: { type: 'admin', routes: [{ method: 'GET', path: '/settings', handler: 'greeting.greet' }] },
  },
};
`,
  // A dependency that is not a plugin, and a plugin with no server side (admin only, like a provider package).
  'node_modules/left-pad-ish/package.json': { name: 'left-pad-ish', version: '1.0.0' },
  'node_modules/strapi-plugin-admin-only/package.json': { name: 'strapi-plugin-admin-only', version: '1.0.0', strapi: { kind: 'plugin', name: 'admin-only' } },
  'node_modules/strapi-plugin-admin-only/strapi-admin.js': `module.exports = {};\n`,
};

const PACKAGE_JSON = {
  name: 'discovery-app',
  private: true,
  dependencies: { 'strapi-plugin-hello': '1.0.0', 'left-pad-ish': '1.0.0', 'strapi-plugin-admin-only': '1.0.0' },
};

const API_ARTICLE = {
  'src/api/blog-post/content-types/blog-post/schema.json': {
    info: { singularName: 'blog-post', pluralName: 'blog-posts', displayName: 'Blog post' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  },
};

/** Captures what the app logs at info while `work` runs. */
async function infoLines<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const saved = process.env.TESSERA_LOG_LEVEL;
  const original = console.log;
  const lines: string[] = [];
  process.env.TESSERA_LOG_LEVEL = 'info';
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    return { result: await work(), lines };
  } finally {
    console.log = original;
    if (saved === undefined) delete process.env.TESSERA_LOG_LEVEL;
    else process.env.TESSERA_LOG_LEVEL = saved;
  }
}

eachDatabase('plugin discovery and the strapi object', (dialect) => {
  let app: TestApp;
  let logged: string[];

  before(async () => {
    const booted = await infoLines(() =>
      startApp({
        dialect,
        files: {
          'package.json': PACKAGE_JSON,
          ...HELLO_PACKAGE,
          ...API_ARTICLE,
          'config/plugins.js': `module.exports = { hello: { config: { greeting: 'hi' } } };\n`,
          // Strapi's schema extension: the plugin's type gets one more attribute (Strapi replaces top-level keys).
          'src/extensions/hello/content-types/note/schema.json': {
            attributes: { text: { type: 'string' }, mood: { type: 'string' } },
          },
        },
      }),
    );
    app = booted.result;
    logged = booted.lines;
  });
  after(async () => {
    await app.stop();
  });

  it('enables an installed plugin without config/plugins naming it, and runs its strapi-server.js', async () => {
    const response = await app.get('/api/hello/greet');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ greeting: 'hi!' });
    // content-type-builder: every app has its content API, as every Strapi app does.
    expect(app.app.plugins.keys().sort()).to.deep.equal(['content-type-builder', 'hello', 'rest']);
  });

  it('sets global.strapi before plugin modules load, and the handle keeps what a plugin stores on it', () => {
    expect((globalThis as { strapi?: App }).strapi).to.equal(app.app);
    expect(app.app.plugin('hello')!.registeredWithGlobal).to.equal(true);
  });

  it('gives one handle per plugin, with methods that work detached, and undefined for a plugin not enabled', () => {
    const handle = app.app.plugin('hello')!;
    expect(app.app.plugin('hello')).to.equal(handle);
    const { config, service } = handle;
    expect(config('greeting')).to.equal('hi');
    expect(service<{ greet(): string }>('greeter')!.greet()).to.equal('hi!');
    expect(app.app.plugin('graphql')).to.equal(undefined);
    expect(app.app.plugin('admin-only')).to.equal(undefined);
  });

  it('serves no private admin route in an app without the admin (API-only), quietly', async () => {
    const lines = logged.filter((line) => line.includes('"hello"'));
    expect(lines).to.deep.equal([]);
    expect((await app.get('/hello/settings')).status).to.equal(404);
    expect((await app.get('/api/hello/settings')).status).to.equal(404);
  });

  it("builds content types as Strapi does: modelName, globalId, apiName/plugin, kind and Strapi's table names", () => {
    const article = app.app.contentType('api::blog-post.blog-post');
    expect(article).to.deep.include({ kind: 'collectionType', modelType: 'contentType', modelName: 'blog-post', globalId: 'BlogPost', apiName: 'blog-post', collectionName: 'blog-post', uid: 'api::blog-post.blog-post' });
    const note = app.app.contentType('plugin::hello.note');
    expect(note).to.deep.include({ kind: 'collectionType', modelName: 'note', globalId: 'HelloNote', plugin: 'hello', collectionName: 'hello_note' });
    expect(note).to.not.have.property('apiName');
    expect(app.app.contentType('plugin::hello.item')!.collectionName).to.equal('hello-items');
  });

  it('stores and reads entries in tables named with hyphens, and in types with a plugin-declared localizations relation', async () => {
    const item = await app.app.entityService.create('plugin::hello.item', { data: { name: 'one' } });
    const other = await app.app.entityService.create('plugin::hello.item', { data: { name: 'two', localizations: [item.id] } });
    const read = (await app.app.entityService.findOne('plugin::hello.item', other.id, { populate: ['localizations'] })) as Record<string, any>;
    expect(read.localizations.map((entry: { name: string }) => entry.name)).to.deep.equal(['one']);
    const post = await app.app.entityService.create('api::blog-post.blog-post', { data: { title: 'in blog-post' } });
    expect((await app.app.db.sql.raw('SELECT title FROM ?? WHERE id = ?', ['blog-post', post.id]))[0].title).to.equal('in blog-post');
  });

  it('applies src/extensions/<plugin>/content-types/<name>/schema.json to the plugin type', async () => {
    expect(Object.keys(app.app.contentType('plugin::hello.note')!.attributes)).to.include('mood');
    const note = await app.app.entityService.create('plugin::hello.note', { data: { text: 'x', mood: 'glad' } });
    expect(note).to.deep.include({ text: 'x', mood: 'glad' });
  });
});

eachDatabase('plugin discovery: config and built-in stand-ins', (dialect) => {
  it('turns an installed plugin off with enabled: false', async () => {
    const app = await startApp({ dialect, files: { 'package.json': PACKAGE_JSON, ...HELLO_PACKAGE, 'config/plugins.js': `module.exports = { hello: { enabled: false } };\n` } });
    try {
      expect(app.app.plugin('hello')).to.equal(undefined);
      expect((await app.get('/api/hello/greet')).status).to.equal(404);
      expect(app.app.contentTypes.has('plugin::hello.note')).to.equal(false);
    } finally {
      await app.stop();
    }
  });

  it("gives an app listing @strapi/plugin-i18n Tessera's i18n, without the npm package", async () => {
    const app = await startApp({ dialect, files: { 'package.json': { name: 'i18n-app', private: true, dependencies: { '@strapi/plugin-i18n': '4.26.2' } } } });
    try {
      expect(app.app.plugin('i18n')).to.not.equal(undefined);
      const response = await app.get('/api/i18n/locales', { token: await app.fullAccessToken() });
      expect(response.status).to.equal(200);
      expect(response.body.map((locale: { code: string }) => locale.code)).to.deep.equal(['en']);
    } finally {
      await app.stop();
    }
  });

  it("runs Strapi's internal upload, email and content-type-builder plugins for an app that depends on @strapi/strapi, unless config turns them off", async () => {
    const strapiApp = { 'package.json': { name: 'strapi-app', private: true, dependencies: { '@strapi/strapi': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2' } } };
    const app = await startApp({ dialect, files: strapiApp });
    try {
      expect(app.app.plugins.keys().sort()).to.deep.equal(['content-type-builder', 'email', 'rest', 'upload', 'users-permissions']);
      expect((await app.get('/api/upload/files', { token: await app.fullAccessToken() })).status).to.equal(200);
      expect((await app.get('/api/content-type-builder/components', { token: await app.fullAccessToken() })).status).to.equal(200);
    } finally {
      await app.stop();
    }
    const without = await startApp({ dialect, files: { ...strapiApp, 'config/plugins.js': `module.exports = { upload: false, email: false };\n` } });
    try {
      expect(without.app.plugin('upload')).to.equal(undefined);
      expect(without.app.plugin('email')).to.equal(undefined);
    } finally {
      await without.stop();
    }
  });

  it('keeps the clear error for a plugin named in config but not installed', async () => {
    const error = await bootError({ dialect, files: { 'config/plugins.js': `module.exports = { navigation: { enabled: true } };\n` } });
    expect(error.message).to.equal('config/plugins: plugin "navigation" is enabled but @tessera/plugin-navigation cannot be found (npm install it, or set plugins.navigation.resolve)');
  });

  it('refuses an installed plugin whose name is not kebab-case, naming its package', async () => {
    const error = await bootError({
      dialect,
      files: {
        'package.json': { name: 'bad-app', private: true, dependencies: { 'strapi-plugin-bad': '1.0.0' } },
        'node_modules/strapi-plugin-bad/package.json': { name: 'strapi-plugin-bad', strapi: { kind: 'plugin', name: 'Bad_Name' } },
      },
    });
    expect(error.message).to.match(/strapi-plugin-bad\/package\.json: plugin name "Bad_Name" is not in kebab-case/);
  });
});

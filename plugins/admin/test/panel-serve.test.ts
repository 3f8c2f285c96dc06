/**
 * The panel built by Strapi 4.26.2's own webpack build (panel-build.ts: once
 * per test run) and served by Tessera at /admin: files by name with long cache
 * headers for hashed chunks, `index.html` (never cached) for the panel's own
 * routes, the admin API winning over the fallback, nothing outside build/,
 * `serveAdminPanel: false` honoured, and the build's staleness rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, startApp, type TestApp } from '@tessera/testing';
import { adminPanelSettings, panelIsStale } from '@tessera/plugin-admin';
import { EXAMPLE_PACKAGE, panelInto, panelUnavailable, ROOT_NODE_MODULES } from './panel-build';

const exampleApp = (config: Record<string, unknown> = {}) =>
  startApp({ dialect: 'sqlite', from: EXAMPLE_APP, files: { 'package.json': EXAMPLE_PACKAGE }, nodeModules: ROOT_NODE_MODULES, config });

describe('admin panel built and served [sqlite]', () => {
  let app: TestApp;
  before(async function () {
    this.timeout(15 * 60_000);
    const reason = panelUnavailable();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    app = await exampleApp();
    await panelInto(app.dir);
  });
  after(() => app?.stop());

  it('lays the build out as strapi build does: index.html, hashed main and runtime chunks', () => {
    const files = fs.readdirSync(path.join(app.dir, 'build'));
    expect(files).to.include('index.html');
    expect(files.some((name) => /^main\.[0-9a-f]{8}\.js$/.test(name))).to.equal(true);
    expect(files.some((name) => /^runtime~main\.[0-9a-f]{8}\.js$/.test(name))).to.equal(true);
  });

  it('serves index.html at /admin and for the panel routes, never cached', async () => {
    for (const route of ['/admin', '/admin/', '/admin/auth/login', '/admin/content-manager/collectionType/api::article.article']) {
      const page = await app.get(route);
      expect(page.status, route).to.equal(200);
      expect(page.headers.get('content-type'), route).to.match(/^text\/html/);
      expect(page.headers.get('cache-control'), route).to.equal('no-cache');
      expect(page.text, route).to.include('<div id="strapi"></div>');
      expect(page.text, route).to.match(/<script defer="defer" src="\/admin\/main\.[0-9a-f]{8}\.js"><\/script>/);
    }
  });

  it('serves hashed chunks with a year of immutable caching', async () => {
    const main = fs.readdirSync(path.join(app.dir, 'build')).find((name) => /^main\.[0-9a-f]{8}\.js$/.test(name))!;
    const chunk = await app.get(`/admin/${main}`);
    expect(chunk.status).to.equal(200);
    expect(chunk.headers.get('content-type')).to.match(/javascript/);
    expect(chunk.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(Number(chunk.headers.get('content-length'))).to.equal(fs.statSync(path.join(app.dir, 'build', main)).size);
  });

  it('answers the admin API before the fallback, and nothing outside build/', async () => {
    expect((await app.get('/admin/init')).body.data).to.have.property('hasAdmin');
    // Strapi 4.26.2 answers 405 to another method on a panel path (recorded: POST /admin/nope).
    expect((await app.post('/admin/nope', {})).status).to.equal(405);
    for (const sneaky of ['/admin/.tessera-build.json', '/admin/%2e%2e/package.json', '/admin/..%2fpackage.json']) {
      const answer = await app.get(sneaky);
      expect(answer.text, sneaky).not.to.include('admin-test-app');
      expect(answer.text, sneaky).not.to.include('"admin":');
    }
  });

  it("keeps admin sessions and users-permissions JWTs apart (the example app has both)", async () => {
    const registered = await app.post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Reader123' });
    expect(registered.status).to.equal(200);
    const userJwt = registered.body.jwt as string;
    expect((await app.get('/api/users/me', { token: userJwt })).status).to.equal(200);
    const refused = await app.get('/admin/users/me', { token: userJwt });
    expect([refused.status, refused.body.error.message]).to.deep.equal([401, 'Missing or invalid credentials']);
    const admin = await app.post('/admin/register-admin', { email: 'owner@example.com', password: 'Owner1234', firstname: 'Owner' });
    expect(admin.status).to.equal(200);
    expect((await app.get('/api/users/me', { token: admin.body.data.token })).status).to.equal(401);
    expect((await app.get('/admin/users/me', { token: admin.body.data.token })).status).to.equal(200);
  });

  it('builds again only when what the panel is made from changed (src/admin)', () => {
    const options = { appDir: app.dir, settings: adminPanelSettings(app.dir, () => undefined), pluginConfig: {}, log: () => undefined };
    expect(panelIsStale(options)).to.equal(false);
    // The example app's own customisations (it offers French), changed and then put back.
    const customisations = path.join(app.dir, 'src', 'admin', 'app.js');
    const original = fs.readFileSync(customisations, 'utf8');
    fs.writeFileSync(customisations, 'export default { config: { locales: ["fr", "de"] } };\n');
    try {
      expect(panelIsStale(options)).to.equal(true);
    } finally {
      fs.writeFileSync(customisations, original);
    }
    expect(panelIsStale(options)).to.equal(false);
  });

  it('serves no panel with serveAdminPanel: false (hosted elsewhere); the admin API still answers', async () => {
    const separate = await exampleApp({ admin: { serveAdminPanel: false } });
    try {
      fs.cpSync(path.join(app.dir, 'build'), path.join(separate.dir, 'build'), { recursive: true });
      expect((await separate.get('/admin')).status).to.equal(404);
      expect((await separate.get('/admin/auth/login')).status).to.equal(404);
      expect((await separate.get('/admin/init')).status).to.equal(200);
    } finally {
      await separate.stop();
    }
  });
});

import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { runCli, tempDir } from './helpers';

/** A fresh app from `tessera new`, in a temp folder. */
async function newApp(): Promise<string> {
  const parent = tempDir('tessera-generate-');
  const dir = path.join(parent, 'app');
  expect((await runCli(['new', dir])).code).to.equal(0);
  return dir;
}

eachDatabase('tessera generate api', (dialect) => {
  let dir: string;
  let app: TestApp | undefined;
  beforeEach(async () => {
    dir = await newApp();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('writes schema, router, controller and service that boot and serve /api/<plural>', async () => {
    const result = await runCli(['generate', 'api', 'blog-post'], { cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.contain('Created 4 files:\n  src/api/blog-post/content-types/blog-post/schema.json\n');
    expect(result.stderr).to.contain("'api::blog-post.blog-post.find'");

    app = await startApp({ dialect, from: dir });
    expect(app.app.contentTypes.get('api::blog-post.blog-post').collectionName).to.equal('blog_posts');
    const token = await app.fullAccessToken();
    const created = await app.post('/api/blog-posts', { data: { title: 'First', body: 'Hello' } }, { token });
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes).to.include({ title: 'First', body: 'Hello' });
    const missing = await app.post('/api/blog-posts', { data: { body: 'no title' } }, { token });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.details.errors[0].path).to.deep.equal(['title']);

    const listed = await app.get('/api/blog-posts', { token });
    expect(listed.status).to.equal(200);
    expect(listed.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['First']);
    expect(listed.body.meta.pagination.total).to.equal(1);
    expect((await app.get('/api/blog-posts')).status).to.equal(403);
  });

  it('takes --plural, and refuses an API that exists (exit 1, nothing changed)', async () => {
    expect((await runCli(['generate', 'api', 'person', '--plural', 'people'], { cwd: dir })).code).to.equal(0);
    const schemaFile = path.join(dir, 'src/api/person/content-types/person/schema.json');
    const before = fs.readFileSync(schemaFile, 'utf8');
    const again = await runCli(['generate', 'api', 'person'], { cwd: dir });
    expect(again.code).to.equal(1);
    expect(again.stderr).to.equal('tessera generate: src/api/person exists already; nothing was written\n');
    expect(fs.readFileSync(schemaFile, 'utf8')).to.equal(before);

    app = await startApp({ dialect, from: dir });
    const token = await app.fullAccessToken();
    expect((await app.post('/api/people', { data: { title: 'Ada' } }, { token })).status).to.equal(200);
    expect((await app.get('/api/people', { token })).body.data).to.have.length(1);
  });
});

eachDatabase('tessera generate plugin', (dialect) => {
  let dir: string;
  let app: TestApp | undefined;
  beforeEach(async () => {
    dir = await newApp();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('writes a plugin in Strapi v4 server format, enables it, and it boots: config, content type, service, routes, policy', async () => {
    const result = await runCli(['generate', 'plugin', 'hello-world'], { cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stderr).to.contain('  src/plugins/hello-world/strapi-server.ts\n');
    expect(result.stderr).to.contain('Enabled it in config/plugins.ts (created).');
    expect(fs.readFileSync(path.join(dir, 'config/plugins.ts'), 'utf8')).to.contain(`'hello-world': { enabled: true, resolve: './src/plugins/hello-world'`);

    app = await startApp({ dialect, from: dir });
    expect(app.app.contentTypes.get('plugin::hello-world.item').collectionName).to.equal('hello_world_items');
    const token = await app.fullAccessToken();
    expect(await app.get('/api/hello-world/items', { token })).to.include({ status: 200 }).and.to.have.deep.property('body', { data: [], meta: { greeting: 'Hello' } });
    const created = await app.post('/api/hello-world/items', { data: { title: 'First' } }, { token });
    expect(created.status).to.equal(200);
    expect(created.body).to.deep.equal({ data: { id: 1, title: 'First' }, meta: {} });
    const refused = await app.post('/api/hello-world/items', { data: { title: ' ' } }, { token });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.deep.equal({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
    expect((await app.get('/api/hello-world/items', { token })).body.data).to.deep.equal([{ id: 1, title: 'First' }]);
    expect((await app.get('/api/hello-world/items')).status).to.equal(403);
    expect(await app.app.db.query('plugin::hello-world.item').count()).to.equal(1);
  });

  it('reads its config from config/plugins.ts; a bad value stops the boot naming the plugin; an existing plugin is refused', async () => {
    expect((await runCli(['generate', 'plugin', 'hello'], { cwd: dir })).code).to.equal(0);
    const config = (greeting: string) => `export default { hello: { enabled: true, resolve: './src/plugins/hello', config: { greeting: ${greeting} } } };\n`;
    fs.writeFileSync(path.join(dir, 'config/plugins.ts'), config('42'));
    const error = await bootError({ dialect, from: dir });
    expect(error.message).to.equal('config/plugins: plugin "hello" has an invalid config: greeting must be a non-empty string');

    fs.writeFileSync(path.join(dir, 'config/plugins.ts'), config("'Bonjour'"));
    const again = await runCli(['generate', 'plugin', 'hello'], { cwd: dir });
    expect(again.code).to.equal(1);
    expect(again.stderr).to.equal('tessera generate: src/plugins/hello exists already; nothing was written\n');
    app = await startApp({ dialect, from: dir });
    const token = await app.fullAccessToken();
    expect((await app.get('/api/hello/items', { token })).body.meta).to.deep.equal({ greeting: 'Bonjour' });
  });

  it('leaves an existing config/plugins.ts alone and says what to add', async () => {
    fs.writeFileSync(path.join(dir, 'config/plugins.ts'), 'export default {};\n');
    const result = await runCli(['generate', 'plugin', 'hello'], { cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stderr).to.contain(`Enable it in config/plugins.ts:\n  'hello': { enabled: true, resolve: './src/plugins/hello', config: { greeting: 'Hello' } },`);
    expect(fs.readFileSync(path.join(dir, 'config/plugins.ts'), 'utf8')).to.equal('export default {};\n');
  });
});

import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { EXAMPLE_APP } from '@tessera/testing';
import { CliProcess, count, refusesConnections, request, sleep, tempApp, waitForHttp, type TempApp } from './helpers';

const TAG_SCHEMA = 'src/api/tag/content-types/tag/schema.json';
const READY = 'ready at';

/** The example's tag schema (its relations included) with some attributes added or replaced. */
function tagSchema(attributes: Record<string, object>): object {
  const schema = JSON.parse(fs.readFileSync(path.join(EXAMPLE_APP, TAG_SCHEMA), 'utf8'));
  return { ...schema, attributes: { ...schema.attributes, ...attributes } };
}

describe('tessera develop', () => {
  let app: TempApp;
  let cli: CliProcess | undefined;
  beforeEach(async () => {
    app = await tempApp('sqlite');
    app.write('config/permissions.ts', `export default { public: ['api::tag.tag.find', 'api::tag.tag.create'] };\n`);
    app.write('src/index.ts', `export default { bootstrap() { console.log('mode=' + process.env.NODE_ENV); } };\n`);
    app.write(TAG_SCHEMA, tagSchema({ name: { type: 'string' } }));
    cli = new CliProcess(['develop'], { cwd: app.dir, env: app.env });
    await waitForHttp(`${app.url}/api/tags`, 200, cli);
  });
  afterEach(async () => {
    if (cli?.running) await cli.stop('SIGKILL');
    cli = undefined;
    await app.remove();
  });

  it('runs in development mode and restarts with the new column after a schema change', async () => {
    expect(cli!.stdout).to.contain('mode=development');
    const before = await request(`${app.url}/api/tags`, 'POST', { data: { name: 'first', slug: 'first-slug' } });
    expect(before.status).to.equal(400);
    expect(before.body.error.name).to.equal('ValidationError');

    app.write(TAG_SCHEMA, tagSchema({ name: { type: 'string' }, slug: { type: 'string' } }));
    await cli!.waitForOutput((output) => count(output, READY) === 2);
    expect(cli!.stdout).to.contain(`${TAG_SCHEMA} changed: restarting`);

    const after = await request(`${app.url}/api/tags`, 'POST', { data: { name: 'first', slug: 'first-slug' } });
    expect(after.status).to.equal(200);
    expect(after.body.data.attributes).to.include({ name: 'first', slug: 'first-slug' });

    expect(await cli!.stop('SIGINT')).to.equal(0);
    expect(await refusesConnections(`${app.url}/api/tags`)).to.equal(true);
  });

  it('keeps a TypeScript app\'s generated types in step with its schemas', async () => {
    const types = path.join(app.dir, 'types/generated/contentTypes.d.ts');
    expect(fs.existsSync(types)).to.equal(false); // no tsconfig.json: not a TypeScript app
    app.write('tsconfig.json', { compilerOptions: { strict: false }, include: ['src', 'types'] });
    app.write(TAG_SCHEMA, tagSchema({ name: { type: 'string' }, color: { type: 'string', required: true } }));
    await cli!.waitForOutput((output) => count(output, READY) === 2);
    expect(fs.existsSync(types), cli!.stdout + cli!.stderr).to.equal(true);
    expect(fs.readFileSync(types, 'utf8')).to.contain('    color: Attribute.String & Attribute.Required;\n');
    expect(cli!.stdout).to.contain('types: wrote types/generated/contentTypes.d.ts');
  });

  it('survives a broken schema: prints what to fix, waits, and recovers when the file is fixed', async () => {
    app.write(TAG_SCHEMA, tagSchema({ name: { type: 'strang' } }));
    await cli!.waitForOutput((output) => output.includes('waiting for a change'));
    expect(cli!.stderr).to.contain(`Tessera could not start: ${TAG_SCHEMA}: attribute "name": unknown type "strang"`);
    expect(cli!.stderr).not.to.match(/^\s+at /m);
    expect(cli!.stdout).to.contain('the app exited with code 1; waiting for a change in src/ or config/ to start it again');
    expect(cli!.running).to.equal(true);
    expect(await refusesConnections(`${app.url}/api/tags`)).to.equal(true);

    app.write(TAG_SCHEMA, tagSchema({ name: { type: 'string' } }));
    await cli!.waitForOutput((output) => count(output, READY) === 2);
    expect((await request(`${app.url}/api/tags`, 'GET')).status).to.equal(200);
    expect(await cli!.stop('SIGTERM')).to.equal(0);
  });

  it('restarts once for a burst of changes, also in a new folder, and never for ignored files or a folder holding only those', async () => {
    for (let index = 0; index < 5; index++) app.write(`src/extra/notes-${index}.txt`, String(index));
    await cli!.waitForOutput((output) => count(output, READY) === 2);
    expect(count(cli!.stdout, 'restarting')).to.equal(1);

    app.write('src/extra/nested/more.txt', 'seen through the watch added after the restart');
    await cli!.waitForOutput((output) => count(output, READY) === 3);

    app.write('src/extra/notes-0.txt~', 'editor backup');
    app.write('src/extra/.tmp/cache', 'x');
    app.write('src/extra/node_modules/x.js', 'x');
    fs.writeFileSync(path.join(app.dir, 'README.md'), 'outside src/ and config/');
    // A new folder holding only ignored files (what @strapi/plugin-documentation makes for a plugin at boot).
    app.write('src/extensions/upload/documentation/1.0.0/upload.json', '{}');
    await sleep(800);
    expect(count(cli!.stdout, 'restarting')).to.equal(2);
    expect(await cli!.stop('SIGINT')).to.equal(0);
  });
});

describe('tessera develop after a failed start', () => {
  it('names what to change when the fix is not a file: a taken port', async () => {
    const app = await tempApp('sqlite');
    const net = await import('node:net');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(app.port, '127.0.0.1', resolve));
    const cli = new CliProcess(['develop'], { cwd: app.dir, env: app.env });
    try {
      await cli.waitForOutput((output) => output.includes('the app exited with code 1'));
      expect(cli.stdout).to.contain('the app exited with code 1; the port is not available: stop the process using it or set PORT (in .env), then restart tessera develop');
      expect(cli.stdout).not.to.contain('waiting for a change in src/ or config/');
    } finally {
      if (cli.running) await cli.stop('SIGKILL');
      blocker.close();
      await app.remove();
    }
  });
});

import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@tessera/testing';
import { CliProcess, cleanEnv, freePort, request, runCli, tempDir, waitForHttp } from './helpers';

const EXPECTED_FILES = [
  '.env',
  '.gitignore',
  'README.md',
  'config/admin.ts',
  'config/api.ts',
  'config/database.ts',
  'config/permissions.ts',
  'config/server.ts',
  'package.json',
  'src/api/post/content-types/post/schema.json',
  'src/index.ts',
  'tsconfig.json',
];

function filesUnder(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), relative) : [relative];
  });
}

function dotEnv(dir: string): Record<string, string> {
  const lines = fs.readFileSync(path.join(dir, '.env'), 'utf8').trim().split('\n');
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('tessera new', () => {
  let parent: string;
  beforeEach(() => {
    parent = tempDir('tessera-new-');
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('scaffolds config, an example content type, package.json, .gitignore and .env', async () => {
    const result = await runCli(['new', 'My Blog'], { cwd: parent });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.contain('cd "My Blog"\n  npm install\n  npm run develop');
    const dir = path.join(parent, 'My Blog');
    // Tessera's packages, packed into the app (new-self-contained.test.ts installs and runs a moved app).
    expect(filesUnder(dir).filter((file) => !file.startsWith('tessera-packages/')).sort()).to.deep.equal(EXPECTED_FILES);

    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).to.equal('my-blog');
    expect(pkg.scripts).to.deep.equal({ develop: 'exec tessera develop', start: 'exec tessera start', 'api-token': 'tessera api-token' });
    expect(pkg.dependencies).to.include.keys('@tessera/cli', '@tessera/core', '@tessera/plugin-rest');
    // Files inside the app: it moves alone, with no path back to the checkout.
    for (const spec of Object.values(pkg.dependencies) as string[]) {
      expect(spec).to.match(/^file:tessera-packages\//);
      expect(fs.existsSync(path.join(dir, spec.slice('file:'.length)))).to.equal(true);
    }
    expect(filesUnder(path.join(dir, 'tessera-packages')).sort()).to.deep.equal(Object.values(pkg.dependencies).map((spec) => (spec as string).slice('file:tessera-packages/'.length)).sort());

    expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8').split('\n')).to.include.members(['node_modules/', '.tmp/', '.env']);
    const env = dotEnv(dir);
    expect(env.API_TOKEN_SALT).to.match(/^[A-Za-z0-9+/=]{24}$/);
    expect(env.APP_KEYS!.split(',')).to.have.length(4);
    expect(new Set(env.APP_KEYS!.split(',')).size).to.equal(4);
    expect(fs.statSync(path.join(dir, '.env')).mode & 0o077).to.equal(0);
  });

  it('generates fresh secrets for every app', async () => {
    await Promise.all([runCli(['new', 'one'], { cwd: parent }), runCli(['new', 'two'], { cwd: parent })]);
    const [one, two] = [dotEnv(path.join(parent, 'one')), dotEnv(path.join(parent, 'two'))];
    expect(one.API_TOKEN_SALT).not.to.equal(two.API_TOKEN_SALT);
    expect(one.APP_KEYS).not.to.equal(two.APP_KEYS);
  });

  it('creates an app that boots and serves its posts publicly, read-only', async () => {
    const dir = path.join(parent, 'served');
    expect((await runCli(['new', dir])).code).to.equal(0);
    const port = await freePort();
    const server = new CliProcess(['start'], { cwd: dir, env: { ...cleanEnv(), PORT: String(port) } });
    try {
      const response = await waitForHttp(`http://127.0.0.1:${port}/api/posts`, 200, server);
      expect(await response.json()).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
      expect((await request(`http://127.0.0.1:${port}/api/posts`, 'POST', { data: { title: 'x' } })).status).to.equal(403);
      expect(fs.existsSync(path.join(dir, '.tmp/data.db'))).to.equal(true);
      const token = await runCli(['api-token', 'create', '--name', 'writer', '--type', 'full-access'], { cwd: dir, env: cleanEnv() });
      const created = await request(`http://127.0.0.1:${port}/api/posts`, 'POST', { data: { title: 'Hello', body: 'First post' } }, token.stdout.trim());
      expect(created.status).to.equal(200);
      expect(created.body.data.attributes).to.include({ title: 'Hello', body: 'First post' });
    } finally {
      expect(await server.stop()).to.equal(0);
    }
  });

  it('--example makes the reference blog, which fills its empty database on the first start', async () => {
    const dir = path.join(parent, 'blog');
    const created = await runCli(['new', dir, '--example']);
    expect(created.code).to.equal(0);
    expect(fs.existsSync(path.join(dir, 'src/api/post'))).to.equal(false);
    expect(fs.existsSync(path.join(dir, 'src/api/article/content-types/article/schema.json'))).to.equal(true);
    expect(fs.existsSync(path.join(dir, 'src/seed.ts'))).to.equal(true);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...cleanEnv(), PORT: String(port) };
    delete env.SEED;
    const server = new CliProcess(['start'], { cwd: dir, env });
    try {
      const response = await waitForHttp(`http://127.0.0.1:${port}/api/articles?pagination[pageSize]=1`, 200, server);
      expect(((await response.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total).to.equal(25);
      expect(server.stdout).to.contain('seed: the database was empty, so it now holds sample content');
    } finally {
      expect(await server.stop()).to.equal(0);
    }
  });

  it('refuses a folder that is not empty (exit 1) and writes nothing; an empty one is fine', async () => {
    const taken = path.join(parent, 'taken');
    fs.mkdirSync(taken);
    fs.writeFileSync(path.join(taken, 'keep.txt'), 'mine');
    const result = await runCli(['new', taken]);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(`tessera new: ${taken} exists and is not empty: choose a new folder name\n`);
    expect(fs.readdirSync(taken)).to.deep.equal(['keep.txt']);

    const file = path.join(parent, 'a-file');
    fs.writeFileSync(file, '');
    expect((await runCli(['new', file])).stderr).to.equal(`tessera new: ${file} exists and is not a folder\n`);

    const empty = path.join(parent, 'empty');
    fs.mkdirSync(empty);
    expect((await runCli(['new', empty])).code).to.equal(0);
    expect(fs.existsSync(path.join(empty, 'package.json'))).to.equal(true);
  });
});

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, registryUnreachable } from '@tessera/testing';
import { CliProcess, cleanEnv, freePort, runCli, tempDir, waitForHttp } from './helpers';

/**
 * Issue 43, item 6: an app `tessera new` makes from a source checkout carries Tessera's packages
 * (`tessera-packages/*.tgz`) and depends on those files, so it needs nothing from the checkout: moved
 * elsewhere, it installs from npm and runs on its own node_modules — its own `tessera` bin, its own kernel.
 */
describe('tessera new: a self-contained app', function () {
  this.timeout(600_000);
  let parent: string;

  before(function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    parent = tempDir('tessera-new-moved-');
  });
  after(() => parent && fs.rmSync(parent, { recursive: true, force: true }));

  it('moved away from where it was made, installs and serves on its own packages', async () => {
    const made = path.join(parent, 'made');
    expect((await runCli(['new', made])).code).to.equal(0);
    const dependencies = (JSON.parse(fs.readFileSync(path.join(made, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    // Every package an app runs on (the checkout's workspaces under packages/ and plugins/, not the test harness), packed.
    const workspaces = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    const runtime = workspaces
      .filter((dir) => /^(packages|plugins)\//.test(dir))
      .map((dir) => (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { name: string }).name)
      .filter((name) => name !== '@tessera/testing');
    expect(Object.keys(dependencies).sort()).to.deep.equal(runtime.sort());
    for (const [name, spec] of Object.entries(dependencies)) {
      expect(spec, name).to.match(/^file:tessera-packages\/tessera-[\w-]+-\d+\.\d+\.\d+\.tgz$/);
      expect(fs.existsSync(path.join(made, spec.slice('file:'.length))), spec).to.equal(true);
    }

    const moved = path.join(parent, 'elsewhere', 'app');
    fs.mkdirSync(path.dirname(moved));
    fs.renameSync(made, moved);
    const install = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: moved, encoding: 'utf8', timeout: 540_000 });
    expect(install.status, `${install.stdout}\n${install.stderr}`).to.equal(0);
    useSqliteBuild(moved);

    // Nothing resolves back to the checkout: each package is a real folder inside the app.
    for (const name of runtime) {
      const manifest = fs.realpathSync(require.resolve(`${name}/package.json`, { paths: [moved] }));
      expect(manifest.startsWith(`${fs.realpathSync(moved)}/node_modules/`), `${name}: ${manifest}`).to.equal(true);
    }
    const port = await freePort();
    const server = new CliProcess(['start'], { cwd: moved, cli: path.join(moved, 'node_modules/@tessera/cli/bin/tessera.js'), env: { ...cleanEnv(), PORT: String(port) } });
    try {
      const response = await waitForHttp(`http://127.0.0.1:${port}/api/posts`, 200, server);
      expect(await response.json()).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    } finally {
      expect(await server.stop()).to.equal(0);
    }
  });
});

/**
 * SQLite's native module: the install skipped build scripts, so the app gets the checkout's compiled module
 * when the versions match (this test is about where packages resolve, not about compiling SQLite), else builds its own.
 */
function useSqliteBuild(app: string): void {
  const version = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const ours = path.dirname(require.resolve('better-sqlite3/package.json'));
  const theirs = path.join(app, 'node_modules/better-sqlite3');
  if (version(ours) === version(theirs)) {
    fs.cpSync(path.join(ours, 'build'), path.join(theirs, 'build'), { recursive: true });
    return;
  }
  const rebuild = spawnSync('npm', ['rebuild', 'better-sqlite3'], { cwd: app, encoding: 'utf8', timeout: 540_000 });
  expect(rebuild.status, `${rebuild.stdout}\n${rebuild.stderr}`).to.equal(0);
}

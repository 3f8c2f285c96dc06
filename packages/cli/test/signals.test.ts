/**
 * A process manager (or a container runtime) stops `npm run develop` /
 * `npm start` by signalling the outermost process only. Every layer below it
 * (npm → shell → npm -w → shell → tessera → app child) must stop too: no
 * orphan may keep listening once the outermost process is gone. The same for
 * the README's `npx --no tessera start|develop` (npm exec → sh -c → node:
 * the shell does not pass the signal on, so the server watches its parent).
 *
 * Each command runs in its own process group (session), killed whole after
 * the test whatever happened.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, spawnGroup } from '@tessera/testing';
import { cleanEnv, freePort, killGroup, refusesConnections, sleep, tempApp, tempDir, waitForHttp, type TempApp } from './helpers';

/** Every live process below `root` (Linux /proc). */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (2nd field) may hold spaces: the parent pid follows its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we listed.
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const [child, parent] of parents) if (parent === pid) found.push(child), visit(child);
  };
  visit(root);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** Resolves once none of `pids` is alive (the test's own timeout bounds the wait). */
async function allGone(pids: number[]): Promise<void> {
  while (pids.some(alive)) await sleep(100);
}

describe('signals: SIGTERM to the outermost npm process', function () {
  let dir: string;
  let npm: ChildProcess | undefined;
  let left: number[] = [];
  beforeEach(() => {
    dir = tempDir('tessera-signals-');
  });
  afterEach(() => {
    killGroup(npm?.pid);
    for (const pid of left) if (alive(pid)) process.kill(pid, 'SIGKILL');
    npm = undefined;
    left = [];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // npm -w, tessera, and for develop the app child it forks.
  for (const [script, layers] of [['develop', 3], ['start', 2]] as const) {
    it(`npm run ${script} (repository root) stops every process below it and frees the port`, async () => {
      const port = await freePort();
      // `npm start` runs in production, which requires its secrets.
      const env = { ...cleanEnv(), PORT: String(port), DATABASE_FILENAME: path.join(dir, 'data.db'), SEED: 'false', API_TOKEN_SALT: 'signals-test-salt', JWT_SECRET: 'signals-test-jwt-secret' };
      npm = spawnGroup('npm', ['run', script], { cwd: REPO_ROOT, env, stdio: 'ignore' });
      const url = `http://127.0.0.1:${port}/api/articles`;
      // The root scripts build first: the wait is for the answer, bounded by the test's timeout.
      await waitForHttp(url, 200);
      left = descendants(npm.pid!);
      expect(left.length).to.be.at.least(layers);

      npm.kill('SIGTERM');
      expect(await exited(npm)).to.equal(0);
      await allGone(left);
      expect(await refusesConnections(url)).to.equal(true);
    });
  }
});

describe('signals: SIGTERM to npx --no tessera start|develop in an app (the README\'s form)', function () {
  let app: TempApp;
  let npx: ChildProcess | undefined;
  let left: number[] = [];
  beforeEach(async () => {
    app = await tempApp('sqlite');
    // As after `npm install` in an app: node_modules/.bin/tessera is this checkout's CLI.
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(app.dir, 'node_modules'));
  });
  afterEach(async () => {
    killGroup(npx?.pid);
    for (const pid of left) if (alive(pid)) process.kill(pid, 'SIGKILL');
    npx = undefined;
    left = [];
    await app.remove();
  });

  for (const command of ['start', 'develop'] as const) {
    it(`setsid npx --no tessera ${command}; kill -TERM <npx>: the server stops and frees the port`, async () => {
      // spawnGroup: the child leads a new session, as setsid makes it.
      npx = spawnGroup('npx', ['--no', 'tessera', command], { cwd: app.dir, env: app.env, stdio: 'ignore' });
      const url = `${app.url}/api/articles`;
      await waitForHttp(url, 200);
      left = descendants(npx.pid!);
      // sh -c, tessera (and develop's app child)
      expect(left.length).to.be.at.least(command === 'develop' ? 3 : 2);

      npx.kill('SIGTERM');
      await exited(npx);
      await allGone(left);
      expect(await refusesConnections(url)).to.equal(true);
    });
  }
});

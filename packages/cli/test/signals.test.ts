/**
 * A process manager (or a container runtime) stops `npm run develop` /
 * `npm start` by signalling the outermost process only. Every layer below it
 * (npm → shell → npm -w → shell → tessera → app child) must stop too: no
 * orphan may keep listening once the outermost process is gone.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@tessera/testing';
import { cleanEnv, freePort, refusesConnections, sleep, tempDir, waitForHttp } from './helpers';

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

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null | 'timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('signals: SIGTERM to the outermost npm process', function () {
  this.timeout(60_000);
  let dir: string;
  let npm: ChildProcess | undefined;
  let left: number[] = [];
  beforeEach(() => {
    dir = tempDir('tessera-signals-');
  });
  afterEach(() => {
    if (npm && npm.exitCode === null) npm.kill('SIGKILL');
    for (const pid of left) if (alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // npm -w, tessera, and for develop the app child it forks.
  for (const [script, layers] of [['develop', 3], ['start', 2]] as const) {
    it(`npm run ${script} (repository root) stops every process below it and frees the port`, async () => {
      const port = await freePort();
      // `npm start` runs in production, which requires its secrets.
      const env = { ...cleanEnv(), PORT: String(port), DATABASE_FILENAME: path.join(dir, 'data.db'), SEED: 'false', API_TOKEN_SALT: 'signals-test-salt', JWT_SECRET: 'signals-test-jwt-secret' };
      npm = spawn('npm', ['run', script], { cwd: REPO_ROOT, env, stdio: 'ignore' });
      const url = `http://127.0.0.1:${port}/api/articles`;
      await waitForHttp(url, 200, 30_000);
      left = descendants(npm.pid!);
      expect(left.length).to.be.at.least(layers);

      npm.kill('SIGTERM');
      expect(await exited(npm, 15_000)).to.equal(0);
      await sleep(200);
      expect(left.filter(alive)).to.deep.equal([]);
      expect(await refusesConnections(url)).to.equal(true);
    });
  }
});

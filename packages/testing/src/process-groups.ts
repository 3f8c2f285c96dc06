/**
 * Every process a test starts runs in a process group of its own (a new
 * session, as `setsid` makes), and the group is killed whole whatever
 * happens: by the test's cleanup, and — a safety net that also fails the
 * file — when the test file ends with any process of the group still alive
 * (scripts/mocha-isolation.js). A leader's exit does not kill its group: a
 * test that checks the processes below stop by themselves must see them.
 * Signalling only the leader left `npm run develop`'s children listening for
 * 45 minutes after a timed-out test.
 *
 * The registry lives on a global symbol because scripts/mocha-isolation.js
 * (plain JavaScript, loaded before any test) reads it without importing this
 * package.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const REGISTRY = Symbol.for('tessera.test.processGroups');

/** Process group ids (the leaders' pids) started by this test process and not yet killed. */
function registry(): Map<number, string> {
  const holder = globalThis as { [REGISTRY]?: Map<number, string> };
  return (holder[REGISTRY] ??= new Map());
}

/** `spawn` in a new process group, registered until the group is killed. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) registry().set(child.pid, [command, ...args].join(' '));
  return child;
}

/** SIGKILL to the whole group and forget it; a group already gone is fine. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  registry().delete(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing is left in the group.
  }
}

/** True while any process of the group lives. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

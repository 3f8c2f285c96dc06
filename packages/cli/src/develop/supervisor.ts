/**
 * Keeps one app child process running for `tessera develop`: restarts it on
 * demand (one restart at a time, stop fully before the next boot so the
 * port and the database are free), and tolerates a child that fails to boot.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { isBootFailure, isReloadRequest } from './remedy';

const CHILD_ENTRY = path.join(__dirname, 'child.js');
/** A child that ignores SIGTERM this long is killed. */
const STOP_TIMEOUT_MS = 10_000;

export class Supervisor {
  private child: ChildProcess | undefined;
  private queue: Promise<void> = Promise.resolve();
  private shuttingDown = false;
  private restartPending = false;

  constructor(
    private readonly dir: string,
    private readonly log: (message: string) => void,
    /** Work before each boot (the admin panel's build when stale); a failure is logged and the app boots anyway. */
    private readonly prepare: () => Promise<void> = async () => undefined,
    /** What a child's `strapi.reload()` does: a restart by default; `tessera develop` batches it with file changes. */
    private readonly onReloadRequest: (reason: string) => void = (reason) => this.restart(reason),
  ) {}

  start(): void {
    this.queue = this.queue.then(() => this.prepared()).then(() => this.spawn());
  }

  restart(reason: string): void {
    // A restart asked for while one is still on its way (not yet booting the new child) is the same restart: the
    // content-type builder's reload and the file watcher's change event after its writes restart the app once.
    if (this.restartPending) return;
    this.restartPending = true;
    this.queue = this.queue.then(async () => {
      if (this.shuttingDown) return;
      this.log(`${reason}: restarting`);
      await this.stopChild();
      await this.prepared();
      this.restartPending = false;
      if (!this.shuttingDown) this.spawn();
    });
  }

  private async prepared(): Promise<void> {
    try {
      await this.prepare();
    } catch (error) {
      this.log(`${error instanceof Error ? error.message : String(error)} (the app starts without a new panel build)`);
    }
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await this.queue;
    await this.stopChild();
  }

  private spawn(): void {
    const child = fork(CHILD_ENTRY, [], { cwd: this.dir, env: { ...process.env, NODE_ENV: 'development' }, stdio: 'inherit' });
    this.child = child;
    let remedy = 'waiting for a change in src/ or config/ to start it again';
    child.on('message', (message) => {
      if (isBootFailure(message)) remedy = message.remedy;
      // strapi.reload() (a plugin that created content types): restart as for a changed file.
      if (isReloadRequest(message) && this.child === child) this.onReloadRequest(message.reason);
    });
    child.once('exit', (code, signal) => {
      if (this.child !== child) return; // stopped on purpose
      this.child = undefined;
      if (this.shuttingDown) return;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.log(`the app ${how}; ${remedy}`);
    });
  }

  private stopChild(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}

/**
 * `tessera start --workers N`: a primary process forks N workers with
 * node:cluster; each serves the app on the shared port (the primary holds the
 * socket and hands out connections). Workers are stateless — everything they
 * share lives in the database (and its LISTEN/NOTIFY channel) — so any of
 * them may answer any request. A worker that dies unexpectedly is replaced;
 * SIGTERM/SIGINT are passed to every worker, and the primary exits once all
 * have closed gracefully.
 */
import cluster from 'node:cluster';
import os from 'node:os';
import { UsageError } from './args';

const RESTART_DELAY_MS = 500;

export function workerCount(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return os.availableParallelism();
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 256) throw new UsageError('--workers takes a number from 1 to 256, or auto');
  return Number(value);
}

export function isWorker(): boolean {
  return cluster.isWorker;
}

/**
 * Workers accept from the shared listening socket themselves (SCHED_NONE)
 * rather than being handed each connection by the primary (node:cluster's
 * round-robin default on Linux). Round-robin sends a connection's handle to a
 * worker and closes its own copy only when the worker acknowledges it; a
 * worker killed in between leaves that connection open in the primary for
 * ever, so its client hangs. Accepting directly, a dead worker's connections
 * are reset by the kernel at once, and the queue is served by the others.
 * Under load both spread connections about evenly (measured on 2 cores).
 * NODE_CLUSTER_SCHED_POLICY=rr still chooses round-robin.
 */
function useSharedSocket(): void {
  if (process.env.NODE_CLUSTER_SCHED_POLICY === undefined) cluster.schedulingPolicy = cluster.SCHED_NONE;
}

/** Runs in the primary: keeps `count` workers alive until a signal, then waits for them; resolves with the exit code. */
export function superviseWorkers(count: number): Promise<number> {
  return new Promise((resolve) => {
    useSharedSocket();
    let stopping = false;
    const fork = () => cluster.fork();
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0);
        return;
      }
      process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
      setTimeout(fork, RESTART_DELAY_MS);
    });
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) resolve(0);
      for (const worker of workers) worker?.process.kill(signal);
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    for (let index = 0; index < count; index++) fork();
  });
}

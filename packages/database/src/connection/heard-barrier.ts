/**
 * "Have we heard of every write committed before now?" for a process that
 * hears other processes' writes on a connection of its own (PostgreSQL's
 * LISTEN, MySQL's polled write versions). Hearing is asynchronous: another
 * process's write can be answered to a client before this process hears of
 * it, and that client's next request can reach this process in between. So
 * whatever reuses an earlier answer (a shared read, a cached total) first
 * waits for a check on that connection begun after the request arrived:
 *
 * - PostgreSQL: a `SELECT 1` on the LISTEN connection. A committing backend
 *   signals the listeners before its client learns of the commit, and a
 *   listening backend sends the notifications it was signalled of before it
 *   answers its next query, so they arrive before the `SELECT 1`'s answer.
 * - MySQL: a poll of the write versions table.
 *
 * Checks are coalesced: askers that come while one runs share the next one
 * (it must begin after they asked), so there is at most one check running and
 * one waiting, whatever the load. Under load that alone would still run
 * checks back to back, as fast as the database answers them: thousands of
 * round trips a second, each costing this process and the database CPU the
 * requests wanted (on MariaDB, a quarter of the server's busy time during
 * `populate=*` lists went to writing polls). So a check that follows another
 * begins no sooner than MIN_GAP_MS after it began: one check then serves every
 * request that came meanwhile, and an asker waits at most that much longer.
 * A lone asker's check, with none run in the last MIN_GAP_MS, begins at once.
 */
import { performance } from 'node:perf_hooks';

/** The least time between the starts of two checks (see above). */
export const MIN_GAP_MS = 2;

export class HeardBarrier {
  /** The check running now, the one every later asker waits for (not begun yet), and when the last one began. */
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private lastBegan = -Infinity;

  /** `check` never rejects: on failure it tells the caches they are not coherent. */
  constructor(private readonly check: () => Promise<void>) {}

  /** Resolves once a check begun after this call has finished. Never rejects. */
  heardUpToNow(): Promise<void> {
    // The next check has not begun: it begins after this call.
    if (this.next) return this.next;
    if (!this.running && performance.now() - this.lastBegan >= MIN_GAP_MS) return this.begin();
    this.next = this.mayBegin().then(() => {
      this.next = undefined;
      return this.begin();
    });
    return this.next;
  }

  /** Once the running check (if any) has ended and MIN_GAP_MS have passed since it began. */
  private async mayBegin(): Promise<void> {
    if (this.running) await this.running;
    // A loop: timers count whole milliseconds from the event loop's cached clock, and may fire a fraction early.
    for (let wait = this.lastBegan + MIN_GAP_MS - performance.now(); wait > 0; wait = this.lastBegan + MIN_GAP_MS - performance.now()) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
  }

  private begin(): Promise<void> {
    this.lastBegan = performance.now();
    const running = this.check().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}

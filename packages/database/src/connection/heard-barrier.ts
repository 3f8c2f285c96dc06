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
 * one waiting, whatever the load.
 */
export class HeardBarrier {
  /** The check running now, and the one queued to begin after it. */
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  /** `check` never rejects: on failure it tells the caches they are not coherent. */
  constructor(private readonly check: () => Promise<void>) {}

  /** Resolves once a check begun after this call has finished. Never rejects. */
  heardUpToNow(): Promise<void> {
    if (!this.running) return this.begin();
    // The running check may have begun before the caller's moment: the next one begins after it.
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      // One begun since the last ended began after every asker waiting here too.
      return this.running ?? this.begin();
    });
    return this.queued;
  }

  private begin(): Promise<void> {
    const running = this.check().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}

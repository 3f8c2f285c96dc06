/**
 * Who hears of committed writes, by content type uid: write listeners in this
 * process (the count cache, plugins' caches) and, when enabled, other
 * processes — PostgreSQL by NOTIFY (write-notifications.ts), MySQL by write
 * versions (mysql-write-versions.ts). Inside a transaction a written type is
 * remembered and announced once, at commit; the NOTIFY is sent inside the
 * transaction, so PostgreSQL delivers it only if the transaction commits.
 */
import { notificationPayload } from './write-notifications';
import type { SqlStatement } from './statements';
import type { TransactionScope } from './transactions';

export class WriteTracking {
  private readonly listeners: Array<(uid: string) => void> = [];
  /** PostgreSQL NOTIFY channel announcing committed writes to other processes, and who we are on it, when enabled. */
  private notifyOn: { channel: string; sender: string } | undefined;
  /** The same for other processes on MySQL (mysql-write-versions.ts). */
  private commitHook: ((types: Set<string>) => Promise<() => void>) | undefined;

  onCommittedWrite(listener: (uid: string) => void): void {
    this.listeners.push(listener);
  }

  /** Announce committed writes on this PostgreSQL channel (for other processes' caches), signed `sender`. */
  notifyWritesOn(channel: string, sender: string): void {
    this.notifyOn = { channel, sender };
  }

  /** MySQL: `hook` records the transaction's written types before it commits; what it returns runs after the commit. */
  announceWritesWith(hook: (types: Set<string>) => Promise<() => void>): void {
    this.commitHook = hook;
  }

  /** `uid` was written: inside a transaction, remembered for its commit; outside one, announced now. */
  written(scope: TransactionScope | undefined, uid: string): void {
    if (scope) scope.written.add(uid);
    else for (const listener of this.listeners) listener(uid);
  }

  /** Before commit, in the transaction: NOTIFY other processes, and queue the listeners first among the after-commit work. */
  async beforeCommit(scope: TransactionScope, run: (statement: SqlStatement) => Promise<unknown>): Promise<void> {
    const types = scope.written;
    if (types.size === 0) return;
    if (this.notifyOn) {
      const { channel, sender } = this.notifyOn;
      for (const uid of types) await run({ sql: 'SELECT pg_notify($1, $2)', bindings: [channel, notificationPayload(sender, uid)] });
    }
    const recorded = this.commitHook ? await this.commitHook(types) : undefined;
    scope.committed.unshift(() => {
      recorded?.();
      for (const uid of types) for (const listener of this.listeners) listener(uid);
    });
  }
}

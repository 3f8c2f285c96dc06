/**
 * Who hears of committed writes, by content type uid: write listeners in this
 * process (the count cache, plugins' caches) and, when enabled, other
 * processes — PostgreSQL by NOTIFY (write-notifications.ts), MySQL by write
 * versions (mysql-write-versions.ts). Inside a transaction a written type is
 * remembered and announced once, at commit. The NOTIFY travels in the COMMIT's
 * own message (no round trip of its own) and inside the transaction, so
 * PostgreSQL delivers it only if the transaction commits.
 */
import { notificationPayload } from './write-notifications';
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

  /** Before commit, in the transaction: MySQL's version bump, and the listeners queued first among the after-commit work. */
  async beforeCommit(scope: TransactionScope): Promise<void> {
    const types = scope.written;
    if (types.size === 0) return;
    const recorded = this.commitHook ? await this.commitHook(types) : undefined;
    scope.committed.unshift(() => {
      recorded?.();
      for (const uid of types) for (const listener of this.listeners) listener(uid);
    });
  }

  /** PostgreSQL, notifications on: the statement sent with the COMMIT (one simple-protocol message, so literals, not bindings). */
  notifyStatement(scope: TransactionScope): string | undefined {
    if (!this.notifyOn || scope.written.size === 0) return undefined;
    const { channel, sender } = this.notifyOn;
    return `SELECT ${[...scope.written].map((uid) => `pg_notify(${literal(channel)}, ${literal(notificationPayload(sender, uid))})`).join(', ')}`;
  }
}

/** A string literal that reads the same whatever `standard_conforming_strings` says (an E'' string). */
function literal(value: string): string {
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

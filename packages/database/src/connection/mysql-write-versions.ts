/**
 * Cross-process cache coherence on MySQL/MariaDB, which has no LISTEN/NOTIFY:
 * a version per content type in `tessera_write_versions`, bumped inside each
 * writing transaction (so it counts only if the transaction commits), and
 * polled by every process on a dedicated connection (outside the pool, so its
 * queries are no request's). A changed version is a write by someone else.
 *
 * Its own writes a process has heard at commit already: the versions its
 * transaction wrote are remembered, and the poll skips them. Skipping a
 * version that jumped over another process's write loses nothing: that write
 * committed before ours (we waited for its row lock), and our commit already
 * dropped every total and cache entry of the type.
 *
 * While the poll fails the cache is told it is not coherent (it bypasses
 * itself); once it answers again everything cached is dropped.
 *
 * The poll alone leaves a gap of up to one interval: whatever reuses an
 * earlier answer first waits for `heardUpToNow`, a poll begun after it asked
 * (heard-barrier.ts; the table holds a row per content type).
 */
import type { Connection as MysqlConnection } from 'mysql2/promise';
import type { Connection } from './connection';
import type { WriteNotificationTarget } from './write-notifications';
import { HeardBarrier } from './heard-barrier';

/** What a bump runs its statements on: the writing transaction's connection. */
type Statements = Pick<Connection, 'raw'>;

export const WRITE_VERSIONS_TABLE = 'tessera_write_versions';
const POLL_MS = 100;

export class MysqlWriteVersions {
  private client: MysqlConnection | undefined;
  private readonly known = new Map<string, number>();
  /** `<uid> <version>` this process's committing transactions wrote (a commit that fails is an outage: cleared then). */
  private readonly ours = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Polls on demand too, coalesced: one running, one queued (heard-barrier.ts). */
  private readonly barrier = new HeardBarrier(() => this.poll());

  constructor(
    private readonly options: Record<string, unknown>,
    private readonly target: WriteNotificationTarget,
  ) {}

  /** Bumps the versions of `types` in the current transaction; the returned function records them once committed. */
  async bump(connection: Statements, types: Set<string>): Promise<() => void> {
    const uids = [...types].sort();
    const rows = uids.length === 1 ? [{ uid: uids[0]!, version: await this.bumpOne(connection, uids[0]!) }] : await this.bumpMany(connection, uids);
    // Known as ours before the commit: a poll may read the new version between the COMMIT and the callback below.
    const ours = rows.map((row) => `${row.uid} ${row.version}`);
    for (const key of ours) this.ours.add(key);
    return () => {
      for (const row of rows) this.remember(row.uid, row.version);
      for (const key of ours) this.ours.delete(key);
    };
  }

  /**
   * One type, one statement: an existing row's new version comes back as the statement's LAST_INSERT_ID (MySQL's
   * idiom for reading an updated counter; the connection answers it as the insert's id), and a row just inserted
   * starts at 1. Most writes touch one type: the read of the version after the bump was a round trip in every one.
   */
  private async bumpOne(connection: Statements, uid: string): Promise<number> {
    const [row] = await connection.raw(`INSERT INTO ?? (uid, version) VALUES (?, 1) ON DUPLICATE KEY UPDATE version = LAST_INSERT_ID(version + 1)`, [WRITE_VERSIONS_TABLE, uid]);
    return row === undefined ? 1 : Number(row.id);
  }

  private async bumpMany(connection: Statements, uids: string[]): Promise<Array<{ uid: string; version: number }>> {
    const values = uids.map(() => '(?, 1)').join(', ');
    await connection.raw(`INSERT INTO ?? (uid, version) VALUES ${values} ON DUPLICATE KEY UPDATE version = version + 1`, [WRITE_VERSIONS_TABLE, ...uids]);
    const rows = await connection.raw(`SELECT uid, version FROM ?? WHERE uid IN (${uids.map(() => '?').join(', ')})`, [WRITE_VERSIONS_TABLE, ...uids]);
    return rows.map((row) => ({ uid: String(row.uid), version: Number(row.version) }));
  }

  async start(): Promise<void> {
    this.target.setCoherent(false);
    await this.heardUpToNow();
    this.schedule();
  }

  /** Resolves once a poll that began after this call has finished (heard-barrier.ts). Never rejects. */
  heardUpToNow(): Promise<void> {
    return this.barrier.heardUpToNow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.heardUpToNow().finally(() => this.schedule());
    }, POLL_MS);
    this.timer.unref();
  }

  private remember(uid: string, version: number): void {
    if (version > (this.known.get(uid) ?? 0)) this.known.set(uid, version);
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    const firstAnswer = this.client === undefined;
    try {
      if (!this.client) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
        this.client = await mysql.createConnection(this.options);
        this.client.on('error', () => this.lost());
      }
      const [rows] = await this.client.query(`SELECT uid, version FROM ${WRITE_VERSIONS_TABLE}`);
      for (const row of rows as Array<{ uid: string; version: unknown }>) {
        const version = Number(row.version);
        const seen = this.ours.has(`${row.uid} ${version}`) ? version : this.known.get(row.uid);
        this.remember(row.uid, version);
        // Versions read on (re)connecting are the baseline: the cache starts, or was dropped, anyway.
        if (!firstAnswer && (seen === undefined || version > seen)) this.target.written(row.uid);
      }
      if (firstAnswer) this.target.setCoherent(true);
    } catch {
      this.lost();
    }
  }

  private lost(): void {
    const client = this.client;
    this.client = undefined;
    this.ours.clear();
    this.target.setCoherent(false);
    void client?.end().catch(() => undefined);
  }
}

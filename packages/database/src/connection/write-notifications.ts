/**
 * Cross-process cache coherence on PostgreSQL: each process LISTENs on one
 * channel per schema and NOTIFYs it when a write commits (connection.ts
 * `markWritten`). A dedicated connection, outside the pool, holds the LISTEN.
 * While it is down the cache is told so (it then bypasses itself) and the
 * listener reconnects with a growing delay; once back, everything cached is
 * dropped, since notifications may have been missed meanwhile.
 *
 * A payload is `<sender> <uid>`: the sender is one process's random id, so a
 * process skips its own notifications. It has already counted those writes at
 * commit; hearing them again, late, would only drop fresh cache entries.
 *
 * A notification reaches this process some time after the write's commit:
 * whatever reuses an earlier answer first waits for `heardUpToNow`, a
 * `SELECT 1` on the LISTEN connection that the notifications of every commit
 * before it precede (heard-barrier.ts).
 */
import type { Client, ClientConfig } from 'pg';
import { HeardBarrier } from './heard-barrier';

export interface WriteNotificationTarget {
  written(uid: string): void;
  setCoherent(coherent: boolean): void;
}

const MAX_RETRY_MS = 5000;

export function writeChannel(schema: string | undefined): string {
  return `tessera_writes_${(schema ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
}

/** The NOTIFY payload announcing a committed write of `uid` by `sender`. */
export function notificationPayload(sender: string, uid: string): string {
  return `${sender} ${uid}`;
}

export class WriteNotifications {
  private client: Client | undefined;
  private stopped = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | undefined;
  private readonly barrier = new HeardBarrier(() => this.roundTrip());

  constructor(
    private readonly config: ClientConfig,
    private readonly channel: string,
    /** This process's id on the channel (its own payloads are skipped). */
    private readonly sender: string,
    private readonly target: WriteNotificationTarget,
  ) {}

  async start(): Promise<void> {
    this.target.setCoherent(false);
    await this.connect();
  }

  /** Resolves once every notification of a commit before this call has been heard (or the listener is down). Never rejects. */
  heardUpToNow(): Promise<void> {
    return this.barrier.heardUpToNow();
  }

  /** A query on the LISTEN connection: the backend sends pending notifications before its answer. */
  private async roundTrip(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await client.query('SELECT 1');
    } catch {
      this.lost(client);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Client: PgClient } = require('pg') as typeof import('pg');
    const client = new PgClient(this.config);
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      const space = message.payload.indexOf(' ');
      if (space < 0 || message.payload.slice(0, space) === this.sender) return;
      this.target.written(message.payload.slice(space + 1));
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch {
      this.lost(client);
      return;
    }
    this.client = client;
    this.retryMs = 100;
    this.target.setCoherent(true);
  }

  private lost(client: Client): void {
    if (this.client !== undefined && this.client !== client) return;
    this.client = undefined;
    this.target.setCoherent(false);
    client.end().catch(() => undefined);
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}

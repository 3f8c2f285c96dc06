/**
 * What keeps the outbox bounded while a receiver is gone:
 *
 * - **Pause**: a webhook whose attempts have all failed for `pauseAfterMs`
 *   (no 2xx in between, as seen by this process) is paused: the pause is
 *   stored (`tessera_webhook_pauses`, so every process and a restart know
 *   it), its pending deliveries stop being due, new events for it are not
 *   queued, and it is logged. `tessera webhooks retry --webhook <id|name>` (or
 *   retrying one of its deliveries) resumes it: its deliveries are due again.
 * - **Queue size**: while a webhook has `maxQueued` deliveries waiting, new
 *   events for it are not queued (logged, at most once a minute per webhook).
 *   The sizes come from the outbox's counters, re-read at every poll, so the
 *   bound is exact to within one poll interval's writes.
 */
import type { Database } from '@tessera/database';
import type { Logger } from '../logger';
import type { Outbox } from './outbox';
import { PAUSES_TABLE } from './table-names';

/** Dropped-event warnings per webhook at most this often. */
const DROP_LOG_EVERY_MS = 60_000;

export interface BoundSettings {
  pauseAfterMs: number;
  maxQueued: number;
}

export class QueueBounds {
  private paused = new Map<string, number>();
  private waiting = new Map<string, number>();
  /** Per webhook: when this process saw the first of an unbroken run of failed attempts. */
  private readonly failingSince = new Map<string, number>();
  private readonly dropped = new Map<string, { count: number; loggedAt: number }>();

  constructor(
    private readonly db: () => Database,
    private readonly outbox: Outbox,
    private readonly settings: () => BoundSettings,
    private readonly log: () => Logger,
  ) {}

  isPaused(webhookKey: string): boolean {
    return this.paused.has(webhookKey);
  }

  pausedKeys(): string[] {
    return [...this.paused.keys()];
  }

  /** Re-reads the pauses and the queue sizes (each poll): a few rows, whatever the outbox holds. */
  async refresh(): Promise<void> {
    const { knex, background } = this.db().sql;
    const [pauses, counts] = await Promise.all([background.all(knex.from(PAUSES_TABLE).select('webhook_key', 'paused_at')), this.outbox.counters.byWebhook()]);
    this.paused = new Map(pauses.map((row) => [String(row.webhook_key), Number(row.paused_at)]));
    this.waiting = new Map([...counts].map(([key, count]) => [key, count.pending + count.sending]));
  }

  /** May an event be queued for this webhook now? A refusal is counted and logged (at most once a minute per webhook). */
  admits(webhookKey: string, webhookName: string): boolean {
    const paused = this.paused.has(webhookKey);
    const full = (this.waiting.get(webhookKey) ?? 0) >= this.settings().maxQueued;
    if (!paused && !full) return true;
    const now = Date.now();
    const drop = this.dropped.get(webhookKey) ?? { count: 0, loggedAt: 0 };
    drop.count++;
    if (now - drop.loggedAt >= DROP_LOG_EVERY_MS) {
      const why = paused ? 'it is paused (resume it with `tessera webhooks retry --webhook`)' : `${this.settings().maxQueued} deliveries are waiting (delivery.maxQueued)`;
      this.log().warn(`webhooks: ${drop.count} event(s) for webhook "${webhookName}" not queued: ${why}`);
      drop.count = 0;
      drop.loggedAt = now;
    }
    this.dropped.set(webhookKey, drop);
    return false;
  }

  attemptSucceeded(webhookKey: string): void {
    this.failingSince.delete(webhookKey);
  }

  /** A failed attempt; pauses the webhook once its attempts have failed for `pauseAfterMs`. True when this paused it. */
  async attemptFailed(webhookKey: string, webhookName: string, now: number): Promise<boolean> {
    const since = this.failingSince.get(webhookKey);
    if (since === undefined) {
      this.failingSince.set(webhookKey, now);
      return false;
    }
    const { pauseAfterMs } = this.settings();
    if (now - since < pauseAfterMs || this.paused.has(webhookKey)) return false;
    const reason = `every attempt failed for ${Math.round((now - since) / 60_000)} minutes`;
    if (!(await this.pause(webhookKey, now, reason))) return false;
    this.log().warn(`webhooks: webhook "${webhookName}" paused: ${reason} (delivery.pauseAfterMs); its deliveries wait until \`tessera webhooks retry --webhook\` resumes it`);
    return true;
  }

  /** Stores the pause (the first process to do so wins) and makes the webhook's pending deliveries wait. */
  async pause(webhookKey: string, now: number, reason: string): Promise<boolean> {
    const { knex, background } = this.db().sql;
    const inserted = await background.affected(knex(PAUSES_TABLE).insert({ webhook_key: webhookKey, paused_at: now, reason }).onConflict('webhook_key').ignore());
    this.paused.set(webhookKey, now);
    if (inserted === 0) return false;
    await this.outbox.setPaused(webhookKey, true);
    return true;
  }

  /** Resumes a paused webhook: its deliveries are due now. False when it was not paused. */
  async resume(webhookKey: string): Promise<boolean> {
    const { knex, background } = this.db().sql;
    const removed = await background.affected(knex(PAUSES_TABLE).where('webhook_key', webhookKey).delete());
    this.paused.delete(webhookKey);
    this.failingSince.delete(webhookKey);
    await this.outbox.setPaused(webhookKey, false);
    return removed > 0;
  }
}

/**
 * The dispatcher: off the request path, it claims due deliveries from the
 * outbox and attempts them, at most `concurrency` at once per process, each
 * bounded by `timeoutMs`. A failed attempt is retried after an exponential
 * backoff (`backoffMs` · 2^(attempt−1), at most `maxBackoffMs`) until
 * `maxAttempts`, then the delivery is marked failed and kept.
 *
 * It wakes when this process commits an event and otherwise polls every
 * `pollIntervalMs` (retries coming due, other processes' events). Every
 * attempt is logged at `http` level with its status and duration. Each poll
 * folds the counters' changes and re-reads pauses and queue sizes (a few
 * rows); every ten minutes, delivered rows older than `retainDeliveredMs`
 * and failed ones older than `retainFailedMs` or beyond the newest
 * `maxFailed` are deleted, with a log line saying how many.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger';
import { PAUSED_DUE, type Delivery, type Outbox, type Settlement } from './outbox';
import type { QueueBounds } from './queue-bounds';
import { attemptHeaders, sendAttempt } from './send';
import type { DeliverySettings } from './settings';
import type { TargetPolicy } from './target-policy';
import type { Webhook } from './types';

/** Old delivered and failed rows are deleted at most this often (or every retention period, when shorter). */
const PRUNE_EVERY_MS = 10 * 60_000;

export interface DispatcherParts {
  outbox: Outbox;
  bounds: QueueBounds;
  settings: DeliverySettings;
  defaultHeaders: Record<string, string>;
  /** Which targets are refused (target-policy.ts). */
  targets: TargetPolicy;
  log: () => Logger;
  /** The webhook a delivery is for, as known now (its URL, headers and secret may have changed since the event). */
  webhook: (key: string) => Webhook | undefined;
  /** Re-reads the webhooks table (at most once per poll interval). */
  refresh: () => Promise<void>;
}

export class Dispatcher {
  /** Who holds a claim: this process, for this run. */
  readonly owner = `${process.pid}:${randomUUID().slice(0, 8)}`;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private polling = false;
  private again = false;
  private stopped = false;
  /** The poll under way, if any: stop() waits for it. */
  private currentPoll: Promise<void> = Promise.resolve();
  private lastRefresh = 0;
  private lastPrune = 0;
  private readonly running = new Set<Promise<void>>();
  private cancel = new AbortController();

  constructor(private readonly parts: DispatcherParts) {}

  start(): void {
    this.stopped = false;
    this.cancel = new AbortController();
    this.schedule(0);
  }

  /** Something was committed: look now rather than at the next poll. */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Stops claiming, cuts attempts in flight short and gives their deliveries back (a hanging receiver never delays a shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.cancel.abort();
    // A poll under way finishes before the database closes (a poll folds counters and reads bounds: several statements).
    await Promise.allSettled([...this.running, this.currentPoll]);
  }

  private schedule(delayMs: number): void {
    const at = Date.now() + delayMs;
    if (this.timer && at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.currentPoll = this.poll();
    }, delayMs);
    // A pending poll never keeps the process alive.
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    const { settings } = this.parts;
    try {
      const now = Date.now();
      if (now - this.lastRefresh >= settings.pollIntervalMs) {
        this.lastRefresh = now;
        await this.parts.refresh();
      }
      await this.parts.outbox.counters.fold();
      await this.parts.bounds.refresh();
      if (now - this.lastPrune >= Math.min(PRUNE_EVERY_MS, settings.retainDeliveredMs, settings.retainFailedMs)) {
        this.lastPrune = now;
        await this.prune(now);
      }
      const room = settings.concurrency - this.inFlight;
      if (room > 0 && (await this.parts.outbox.hasDue(now))) {
        const claimed = await this.parts.outbox.claim(room, this.owner, now, settings.leaseMs);
        for (const delivery of claimed) this.track(this.attempt(delivery));
      }
    } catch (error) {
      if (!this.stopped) this.parts.log().warn(`webhooks: cannot read the outbox (${(error as Error).message}); trying again in ${settings.pollIntervalMs} ms`);
    } finally {
      this.polling = false;
    }
    if (this.stopped) return;
    if (this.again) {
      this.again = false;
      this.schedule(0);
    } else this.schedule(settings.pollIntervalMs);
  }

  private async prune(now: number): Promise<void> {
    const { outbox, settings } = this.parts;
    const delivered = await outbox.pruneSettled('delivered', now - settings.retainDeliveredMs);
    if (delivered > 0) this.parts.log().info(`webhooks: deleted ${delivered} delivered deliveries older than ${days(settings.retainDeliveredMs)} (delivery.retainDeliveredMs)`);
    const failed = await outbox.pruneSettled('failed', now - settings.retainFailedMs, settings.maxFailed);
    if (failed > 0) {
      this.parts.log().warn(`webhooks: deleted ${failed} failed deliveries, the oldest: kept are those of the last ${days(settings.retainFailedMs)}, at most ${settings.maxFailed} (delivery.retainFailedMs, delivery.maxFailed)`);
    }
  }

  private track(attempt: Promise<void>): void {
    this.inFlight++;
    this.running.add(attempt);
    void attempt.finally(() => {
      this.inFlight--;
      this.running.delete(attempt);
      // A slot is free, and the entry's next delivery may be due now.
      this.wake();
    });
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const { outbox, settings, bounds } = this.parts;
    const log = this.parts.log();
    const settle = (settlement: Settlement) => outbox.settle(delivery, this.owner, settlement, bounds.isPaused(delivery.webhookKey) ? PAUSED_DUE : Date.now());
    try {
      const webhook = this.parts.webhook(delivery.webhookKey);
      if (!webhook || !webhook.isEnabled) {
        await settle({ kind: 'abandoned', reason: webhook ? 'the webhook is disabled' : 'the webhook no longer exists' });
        log.http(`webhook ${delivery.webhookKey} ${delivery.event} #${delivery.id}: ${webhook ? 'disabled' : 'gone'}, not sent`);
        return;
      }
      const headers = attemptHeaders(webhook, this.parts.defaultHeaders, {
        event: delivery.event,
        body: delivery.payload,
        eventId: delivery.eventId,
        deliveryId: delivery.id,
        attempt: delivery.attempts,
      });
      const result = await sendAttempt(webhook, headers, delivery.payload, { timeoutMs: settings.timeoutMs, targets: this.parts.targets, cancel: this.cancel.signal });
      if (!result.ok && this.cancel.signal.aborted) {
        await settle({ kind: 'released' });
        return;
      }
      const shown = `webhook "${webhook.name}" ${delivery.event} #${delivery.id} attempt ${delivery.attempts}/${settings.maxAttempts}`;
      if (result.ok) {
        bounds.attemptSucceeded(delivery.webhookKey);
        await settle({ kind: 'delivered', status: result.status! });
        log.http(`${shown} → ${result.status} in ${result.durationMs} ms`);
        return;
      }
      const retryAt = delivery.attempts >= settings.maxAttempts ? null : Date.now() + this.backoff(delivery.attempts);
      const outcome = result.status ?? result.message;
      const error = result.message ?? `HTTP ${result.status}`;
      const paused = await bounds.attemptFailed(delivery.webhookKey, webhook.name, Date.now());
      // Paused by this failure: the retry waits for the resume, as the webhook's other pending deliveries do.
      const at = (paused || bounds.isPaused(delivery.webhookKey)) && retryAt !== null ? PAUSED_DUE : retryAt;
      await settle(at === null ? { kind: 'failed', status: result.status, error } : { kind: 'retry', status: result.status, error, at });
      log.http(`${shown} → ${outcome} in ${result.durationMs} ms; ${retryAt === null ? 'failed, kept for `tessera webhooks retry`' : paused ? 'webhook paused' : `retry in ${retryAt - Date.now()} ms`}`);
    } catch (error) {
      // The outbox could not be updated: the lease runs out and the delivery is attempted again.
      log.warn(`webhooks: delivery #${delivery.id} not settled (${(error as Error).message})`);
    }
  }

  private backoff(attempts: number): number {
    const { backoffMs, maxBackoffMs } = this.parts.settings;
    return Math.min(maxBackoffMs, backoffMs * 2 ** Math.max(0, attempts - 1));
  }
}

function days(ms: number): string {
  return ms % 86_400_000 === 0 ? `${ms / 86_400_000} day(s)` : `${Math.round(ms / 60_000)} minute(s)`;
}

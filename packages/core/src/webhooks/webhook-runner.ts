/**
 * Strapi v4's webhook runner (`strapi.webhookRunner`): which webhooks listen
 * to which event, `add`/`update`/`remove` to change that in memory (as
 * Strapi's admin does after writing the store), and `run(webhook, event,
 * info)` for one immediate attempt (Strapi's "trigger" button).
 *
 * Unlike Strapi's, events are not delivered from memory: whatever the event
 * hub carries that a webhook listens to goes through the outbox (see
 * webhooks.ts), so a crash or a receiver that is down loses nothing.
 */
import type { EventHub } from './event-hub';
import { attemptHeaders, sendAttempt } from './send';
import type { TargetPolicy } from './target-policy';
import { webhookKey, type Webhook } from './types';

/** Strapi's answer to `run`: the status, and the receiver's message when it was not a 2xx. */
export interface RunResult {
  statusCode: number;
  message?: string;
}

/** A webhook as Strapi code hands it to `add`/`update`/`remove` (a store answer, or a plain object). */
export interface RunnerWebhook {
  id: number | string;
  name?: string;
  url: string;
  headers?: Record<string, string>;
  events: string[];
  isEnabled?: boolean;
  secret?: string;
}

export interface RunnerOptions {
  defaultHeaders: () => Record<string, string>;
  timeoutMs: () => number;
  targets: () => TargetPolicy;
}

export class WebhookRunner {
  private stored: Webhook[] = [];
  private declared: Webhook[] = [];
  private readonly runtime = new Map<string, Webhook>();
  /** Bumped by every in-memory change, so a table read that started before one cannot undo it. */
  private changes = 0;

  constructor(
    readonly eventHub: EventHub,
    private readonly options: RunnerOptions,
  ) {}

  /** Every known webhook: declared in config, stored in `strapi_webhooks`, added at runtime. */
  list(): Webhook[] {
    return [...this.declared, ...this.stored, ...this.runtime.values()];
  }

  /** Enabled webhooks listening to `event`. */
  forEvent(event: string): Webhook[] {
    return this.list().filter((webhook) => webhook.isEnabled && webhook.events.includes(event));
  }

  byKey(key: string): Webhook | undefined {
    return this.list().find((webhook) => webhookKey(webhook) === key);
  }

  /** The table's current rows (re-read by the dispatcher, so CLI changes reach a running server). */
  setStored(webhooks: Webhook[]): void {
    this.stored = webhooks;
  }

  /** Re-reads the table with `load`, unless `add`/`update`/`remove` changed the list meanwhile (the next refresh will). */
  async refresh(load: () => Promise<Webhook[]>): Promise<void> {
    const before = this.changes;
    const webhooks = await load();
    if (this.changes === before) this.stored = webhooks;
  }

  setDeclared(webhooks: Webhook[]): void {
    this.declared = webhooks;
  }

  /** Strapi: start delivering to `webhook`. A numeric id names a `strapi_webhooks` row; anything else lives in memory. */
  add(webhook: RunnerWebhook): void {
    this.changes++;
    const known = toWebhook(webhook);
    // A store answer carries no secret: keep the one already known for that row.
    known.secret ??= this.stored.find((item) => item.id === known.id)?.secret;
    if (known.source === 'database') this.stored = [...this.stored.filter((item) => item.id !== known.id), known];
    else this.runtime.set(String(known.id), known);
  }

  update(webhook: RunnerWebhook): void {
    // A store answer carries no secret: keep the one known before the old entry goes.
    const secret = webhook.secret ?? this.stored.find((item) => item.id === webhook.id)?.secret;
    this.remove(webhook);
    this.add({ ...webhook, secret });
  }

  remove(webhook: Pick<RunnerWebhook, 'id'>): void {
    this.changes++;
    this.stored = this.stored.filter((item) => item.id !== webhook.id);
    this.runtime.delete(String(webhook.id));
  }

  /** Strapi: one attempt now, outside the outbox; resolves with the status (500 and the error when no answer came). */
  async run(webhook: RunnerWebhook, event: string, info: Record<string, unknown> = {}): Promise<RunResult> {
    const target = toWebhook(webhook);
    const body = JSON.stringify({ event, createdAt: new Date(), ...info });
    const headers = attemptHeaders(target, this.options.defaultHeaders(), { event, body });
    const result = await sendAttempt(target, headers, body, { timeoutMs: this.options.timeoutMs(), targets: this.options.targets() });
    if (result.ok) return { statusCode: result.status! };
    // No answer: Strapi's 500 with its HTTP client's wording, which the panel's trigger shows.
    if (result.status === null) return { statusCode: 500, message: `request to ${target.url} failed, reason: ${result.reason ?? result.message ?? ''}` };
    return { statusCode: result.status, message: result.message ?? '' };
  }
}

function toWebhook(webhook: RunnerWebhook): Webhook {
  return {
    id: webhook.id,
    name: webhook.name ?? String(webhook.id),
    url: webhook.url,
    headers: webhook.headers ?? {},
    events: webhook.events ?? [],
    isEnabled: webhook.isEnabled !== false,
    secret: webhook.secret,
    source: typeof webhook.id === 'number' ? 'database' : 'runtime',
  };
}

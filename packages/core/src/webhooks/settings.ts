/**
 * `config/server.ts` → `webhooks`: Strapi v4's options (`defaultHeaders`,
 * `populateRelations`) plus Tessera's own — webhooks declared in config, how
 * the outbox delivers, and `refusePrivateAddresses` (target-policy.ts). Read once when the database connects; a bad
 * value stops the boot with a message naming it.
 */
import { ConfigurationError } from '@tessera/errors';
import { getConfig, type ConfigTree } from '../config/load-config';
import type { TargetPolicy } from './target-policy';
import type { WebhookDefinition } from './types';

export interface DeliverySettings {
  /** Attempts before a delivery is marked failed (and kept). */
  maxAttempts: number;
  /** First retry delay; each further one doubles, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** One attempt's time limit (connect + response). */
  timeoutMs: number;
  /** Deliveries in flight at once, per process. */
  concurrency: number;
  /** How often a process looks for due deliveries (retries, other processes' events) and re-reads the webhooks table. */
  pollIntervalMs: number;
  /** A claimed delivery whose process died is taken over after this long. */
  leaseMs: number;
  /** Delivered rows are deleted this long after delivery. */
  retainDeliveredMs: number;
  /** Failed rows are deleted this long after they failed… */
  retainFailedMs: number;
  /** …and beyond the newest `maxFailed` of them (oldest first). */
  maxFailed: number;
  /** A webhook whose attempts have all failed for this long is paused (queue-bounds.ts). */
  pauseAfterMs: number;
  /** While a webhook has this many deliveries waiting, new events for it are not queued. */
  maxQueued: number;
}

export interface WebhookSettings {
  defaultHeaders: Record<string, string>;
  /** Strapi v4: related entries in the payload (true) or `{ count }` (false). */
  populateRelations: boolean;
  /** A payload larger than this (bytes of JSON) is cut down (payload.ts). */
  maxPayloadBytes: number;
  /** Webhooks from config (marked `source: 'config'`), besides the `strapi_webhooks` rows. */
  declared: WebhookDefinition[];
  /** Targets refused besides link-local and metadata addresses (target-policy.ts): loopback and private ranges too. */
  targets: TargetPolicy;
  delivery: DeliverySettings;
}

const FILE = 'config/server.ts';
const DAY_MS = 24 * 60 * 60_000;

export function webhookSettings(config: ConfigTree): WebhookSettings {
  const raw = getConfig<unknown>(config, 'server.webhooks', {});
  if (!isRecord(raw)) throw new ConfigurationError('server.webhooks must be an object', FILE);
  const delivery = isRecord(raw.delivery) ? raw.delivery : {};
  const timeoutMs = positive(delivery.timeoutMs, 10_000, 'delivery.timeoutMs');
  return {
    defaultHeaders: headers(raw.defaultHeaders, 'server.webhooks.defaultHeaders'),
    populateRelations: raw.populateRelations !== false,
    maxPayloadBytes: positive(raw.maxPayloadBytes, 1024 * 1024, 'maxPayloadBytes'),
    declared: declared(raw.declared),
    targets: { refusePrivate: flag(raw.refusePrivateAddresses, 'refusePrivateAddresses') },
    delivery: {
      maxAttempts: positive(delivery.maxAttempts, 10, 'delivery.maxAttempts'),
      backoffMs: positive(delivery.backoffMs, 1000, 'delivery.backoffMs'),
      maxBackoffMs: positive(delivery.maxBackoffMs, 60 * 60_000, 'delivery.maxBackoffMs'),
      timeoutMs,
      concurrency: positive(delivery.concurrency, 5, 'delivery.concurrency'),
      pollIntervalMs: positive(delivery.pollIntervalMs, 1000, 'delivery.pollIntervalMs'),
      // Longer than an attempt can last, so a live process never loses its claim.
      leaseMs: positive(delivery.leaseMs, timeoutMs * 2 + 5000, 'delivery.leaseMs'),
      retainDeliveredMs: positive(delivery.retainDeliveredMs, 7 * DAY_MS, 'delivery.retainDeliveredMs'),
      retainFailedMs: positive(delivery.retainFailedMs, 7 * DAY_MS, 'delivery.retainFailedMs'),
      maxFailed: positive(delivery.maxFailed, 10_000, 'delivery.maxFailed'),
      pauseAfterMs: positive(delivery.pauseAfterMs, DAY_MS, 'delivery.pauseAfterMs'),
      maxQueued: positive(delivery.maxQueued, 100_000, 'delivery.maxQueued'),
    },
  };
}

function declared(value: unknown): WebhookDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigurationError('server.webhooks.declared must be a list of webhooks', FILE);
  const names = new Set<string>();
  return value.map((item, index) => {
    const where = `server.webhooks.declared[${index}]`;
    if (!isRecord(item)) throw new ConfigurationError(`${where} must be an object`, FILE);
    if (typeof item.name !== 'string' || item.name === '') throw new ConfigurationError(`${where}.name must be a non-empty string`, FILE);
    if (names.has(item.name)) throw new ConfigurationError(`${where}.name "${item.name}" is declared twice`, FILE);
    names.add(item.name);
    if (typeof item.url !== 'string' || !/^https?:\/\//.test(item.url)) throw new ConfigurationError(`${where}.url must be an http(s) URL`, FILE);
    if (!Array.isArray(item.events) || item.events.some((event) => typeof event !== 'string')) {
      throw new ConfigurationError(`${where}.events must be a list of event names`, FILE);
    }
    if (item.secret !== undefined && (typeof item.secret !== 'string' || item.secret === '')) throw new ConfigurationError(`${where}.secret must be a non-empty string`, FILE);
    return {
      name: item.name,
      url: item.url,
      headers: headers(item.headers, `${where}.headers`),
      events: item.events as string[],
      isEnabled: item.enabled !== false,
      secret: item.secret as string | undefined,
    };
  });
}

function headers(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value) || Object.values(value).some((header) => typeof header !== 'string')) {
    throw new ConfigurationError(`${where} must map header names to strings`, FILE);
  }
  return value as Record<string, string>;
}

function positive(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new ConfigurationError(`server.webhooks.${name} must be a positive number`, FILE);
  return value;
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new ConfigurationError(`server.webhooks.${name} must be true or false`, FILE);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Strapi v4's webhook store (`strapi.webhookStore`), over `strapi_webhooks`
 * exactly as Strapi writes it: `enabled` in the table is `isEnabled` in
 * answers, `headers` and `events` are JSON. A webhook's signing secret is
 * kept in Tessera's own table beside it, so Strapi's table is never altered.
 * A URL the server must never call (target-policy.ts) is refused when saved.
 */
import { ValidationError } from '@tessera/errors';
import type { Database, Row } from '@tessera/database';
import { SECRETS_TABLE, WEBHOOKS_TABLE } from './table-names';
import { targetRefusal, type TargetPolicy } from './target-policy';
import { WEBHOOK_EVENTS, type Webhook, type WebhookDefinition } from './types';

/** Strapi's answer for one stored webhook. */
export interface StoredWebhook {
  id: number;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}

export type WebhookInput = Partial<WebhookDefinition>;

const MAX_NAME = 255;
const MAX_URL = 2048;

export class WebhookStore {
  /** Strapi: event key → name (`ENTRY_CREATE` → `entry.create`); only these may be subscribed to. */
  readonly allowedEvents = new Map<string, string>(Object.entries(WEBHOOK_EVENTS));

  constructor(
    private readonly db: () => Database,
    private readonly targets: () => TargetPolicy,
  ) {}

  addAllowedEvent(key: string, value: string): void {
    this.allowedEvents.set(key, value);
  }

  removeAllowedEvent(key: string): void {
    this.allowedEvents.delete(key);
  }

  listAllowedEvents(): string[] {
    return [...this.allowedEvents.keys()];
  }

  getAllowedEvent(key: string): string | undefined {
    return this.allowedEvents.get(key);
  }

  async findWebhooks(): Promise<StoredWebhook[]> {
    const connection = this.db().sql;
    return (await connection.all(connection.knex.from(WEBHOOKS_TABLE).select('*').orderBy('id', 'asc'))).map(fromRow);
  }

  async findWebhook(id: number): Promise<StoredWebhook | null> {
    const connection = this.db().sql;
    const row = await connection.first(connection.knex.from(WEBHOOKS_TABLE).select('*').where('id', id));
    return row ? fromRow(row) : null;
  }

  /** The stored webhooks with their secrets, as the runner delivers to them (background statements: re-read every poll). */
  async loadForDelivery(): Promise<Webhook[]> {
    const { knex, background } = this.db().sql;
    const [rows, secrets] = await Promise.all([
      background.all(knex.from(WEBHOOKS_TABLE).select('*').orderBy('id', 'asc')),
      background.all(knex.from(SECRETS_TABLE).select('webhook_id', 'secret')),
    ]);
    const secretOf = new Map(secrets.map((row) => [Number(row.webhook_id), String(row.secret)]));
    return rows.map(fromRow).map((row) => ({ ...row, source: 'database', secret: secretOf.get(row.id) }));
  }

  async createWebhook(data: WebhookInput): Promise<StoredWebhook> {
    const values = this.validate(data, true);
    await this.checkTarget(values.url);
    const connection = this.db().sql;
    return this.db().transaction(async () => {
      const [inserted] = await connection.run(connection.knex(WEBHOOKS_TABLE).insert(toRow({ ...values, isEnabled: data.isEnabled ?? true })).returning('id'));
      const id = Number(inserted!.id);
      if (data.secret) await this.setSecret(id, data.secret);
      return (await this.findWebhook(id))!;
    });
  }

  async updateWebhook(id: number, data: WebhookInput): Promise<StoredWebhook | null> {
    const values = this.validate(data, false);
    await this.checkTarget(values.url);
    const connection = this.db().sql;
    return this.db().transaction(async () => {
      const row = toRow(values);
      if (Object.keys(row).length > 0 && (await connection.affected(connection.knex(WEBHOOKS_TABLE).update(row).where('id', id))) === 0) return null;
      const found = await this.findWebhook(id);
      if (found && data.secret !== undefined) await this.setSecret(id, data.secret || null);
      return found;
    });
  }

  async deleteWebhook(id: number): Promise<StoredWebhook | null> {
    const connection = this.db().sql;
    return this.db().transaction(async () => {
      const found = await this.findWebhook(id);
      if (!found) return null;
      await connection.run(connection.knex(WEBHOOKS_TABLE).where('id', id).delete());
      await connection.run(connection.knex(SECRETS_TABLE).where('webhook_id', id).delete());
      return found;
    });
  }

  /**
   * Deletes the webhooks with these ids (those that exist), in one transaction and three statements whatever the
   * count (the panel's batch delete); answers the deleted ones.
   */
  async deleteWebhooks(ids: number[]): Promise<StoredWebhook[]> {
    const connection = this.db().sql;
    if (ids.length === 0) return [];
    return this.db().transaction(async () => {
      const found = (await connection.all(connection.knex.from(WEBHOOKS_TABLE).select('*').whereIn('id', ids).orderBy('id', 'asc'))).map(fromRow);
      if (found.length === 0) return [];
      const existing = found.map((webhook) => webhook.id);
      await connection.run(connection.knex(WEBHOOKS_TABLE).whereIn('id', existing).delete());
      await connection.run(connection.knex(SECRETS_TABLE).whereIn('webhook_id', existing).delete());
      return found;
    });
  }

  /** One stored webhook as the runner delivers to it (with its secret), or null. */
  async findForDelivery(id: number): Promise<Webhook | null> {
    const connection = this.db().sql;
    const found = await this.findWebhook(id);
    if (!found) return null;
    const secret = await connection.first(connection.knex.from(SECRETS_TABLE).select('secret').where('webhook_id', id));
    return { ...found, source: 'database', secret: secret ? String(secret.secret) : undefined };
  }

  /** Sets (or, with null, removes) the secret deliveries to webhook `id` are signed with. */
  async setSecret(id: number, secret: string | null): Promise<void> {
    const connection = this.db().sql;
    await this.db().transaction(async () => {
      await connection.run(connection.knex(SECRETS_TABLE).where('webhook_id', id).delete());
      if (secret) await connection.run(connection.knex(SECRETS_TABLE).insert({ webhook_id: id, secret }));
    });
  }

  /** A 400 naming why, when the server may not call `url` (its name resolved now). */
  async checkTarget(url: string | undefined): Promise<void> {
    if (url === undefined) return;
    const refusal = await targetRefusal(url, this.targets());
    if (refusal) throw ValidationError.forField(['url'], `url is refused: ${refusal}`);
  }

  /** Strapi's validation (events must be allowed), plus names, URLs and headers a delivery can use. */
  private validate(data: WebhookInput, creating: boolean): WebhookInput {
    const values: WebhookInput = {};
    if (creating || data.name !== undefined) {
      if (typeof data.name !== 'string' || data.name.trim() === '' || data.name.length > MAX_NAME) throw new ValidationError(`name must be a non-empty string of at most ${MAX_NAME} characters`);
      values.name = data.name;
    }
    if (creating || data.url !== undefined) {
      if (typeof data.url !== 'string' || data.url.length > MAX_URL || !isHttpUrl(data.url)) throw new ValidationError('url must be an http(s) URL');
      values.url = data.url;
    }
    if (creating || data.events !== undefined) {
      if (!Array.isArray(data.events)) throw new ValidationError('events must be a list of event names');
      const allowed = new Set(this.allowedEvents.values());
      for (const event of data.events) if (!allowed.has(event)) throw new ValidationError(`Webhook event ${event} is not supported`);
      values.events = data.events;
    }
    if (creating || data.headers !== undefined) {
      const headers = data.headers ?? {};
      for (const [name, value] of Object.entries(headers)) {
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== 'string' || /[\r\n]/.test(value)) throw new ValidationError(`header "${name}" is not a valid HTTP header`);
      }
      values.headers = headers;
    }
    if (data.isEnabled !== undefined) values.isEnabled = data.isEnabled;
    return values;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function toRow(data: WebhookInput): Row {
  const row: Row = {};
  if (data.name !== undefined) row.name = data.name;
  if (data.url !== undefined) row.url = data.url;
  if (data.headers !== undefined) row.headers = JSON.stringify(data.headers);
  if (data.events !== undefined) row.events = JSON.stringify(data.events);
  if (data.isEnabled !== undefined) row.enabled = data.isEnabled;
  return row;
}

/** A row as Strapi reads it: SQLite hands JSON and booleans back as text and integers. */
function fromRow(row: Row): StoredWebhook {
  return {
    id: Number(row.id),
    name: String(row.name ?? ''),
    url: String(row.url ?? ''),
    headers: (json(row.headers) as Record<string, string> | null) ?? {},
    events: (json(row.events) as string[] | null) ?? [],
    isEnabled: row.enabled === true || row.enabled === 1 || row.enabled === '1',
  };
}

function json(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

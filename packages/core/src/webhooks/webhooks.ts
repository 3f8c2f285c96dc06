/**
 * Webhooks, wired into the kernel: Strapi v4's `eventHub`, `webhookStore`
 * and `webhookRunner`, delivered through a transactional outbox.
 *
 * - Entry events: the entity service tells this module of each write inside
 *   its transaction (`WriteRecorder`); the delivery rows are inserted there,
 *   so they commit or roll back with the write.
 * - Media events: database lifecycles on the file type, which run inside
 *   the file write's transaction, whatever path wrote it.
 * - Anything server code emits on the event hub that a webhook listens to
 *   goes into the outbox too (inside the caller's transaction, if any).
 * After commit, entry and media events are also emitted on the event hub
 * for server code (`strapi.eventHub.on('entry.create', …)`).
 */
import { randomUUID } from 'node:crypto';
import { FILE_UID, type Database, type Entity } from '@tessera/database';
import type { App } from '../app-type';
import { CONTENT_EVENTS, publicEntry, type ContentEventName } from '../content/content-events';
import type { WriteRecorder } from '../content/entity-service';
import { createEventHub, type EventSubscriber } from './event-hub';
import { WebhookStore } from './webhook-store';
import { Outbox } from './outbox';
import { WebhookRunner } from './webhook-runner';
import { PayloadReader } from './payload';
import { Dispatcher } from './dispatcher';
import { webhookSettings, type WebhookSettings } from './settings';
import { ensureWebhookTables } from './tables';
import { webhookMetricsRouter } from './metrics-route';
import { QueueBounds } from './queue-bounds';
import { restConfig } from '../config/rest-config';
import { webhookKey, type MediaEventName, type Webhook } from './types';

const MEDIA_ACTIONS: Array<['afterCreate' | 'afterUpdate' | 'afterDelete', MediaEventName]> = [
  ['afterCreate', 'media.create'],
  ['afterUpdate', 'media.update'],
  ['afterDelete', 'media.delete'],
];

export class Webhooks implements WriteRecorder {
  readonly eventHub = createEventHub();
  /** The runner's subscription to the event hub: events server code emits, for the webhooks listening to them. */
  private readonly runnerSubscriber: EventSubscriber = (event, info) => this.emitted(event, info);
  readonly store: WebhookStore;
  readonly outbox: Outbox;
  readonly runner: WebhookRunner;
  /** Pauses and the queue-size bound (queue-bounds.ts). */
  readonly bounds: QueueBounds;
  private settings: WebhookSettings | undefined;
  private payloads: PayloadReader | undefined;
  private dispatcher: Dispatcher | undefined;
  /** Event-hub payloads this module emitted after commit: already in the outbox, not to be queued again. */
  private readonly committed = new WeakSet<object>();

  constructor(private readonly app: App) {
    const db = () => app.db;
    this.store = new WebhookStore(db, () => this.config.targets);
    this.outbox = new Outbox(db);
    this.bounds = new QueueBounds(db, this.outbox, () => this.config.delivery, () => app.log);
    this.runner = new WebhookRunner(this.eventHub, {
      defaultHeaders: () => this.config.defaultHeaders,
      timeoutMs: () => this.config.delivery.timeoutMs,
      targets: () => this.config.targets,
    });
    this.eventHub.subscribe(this.runnerSubscriber);
    // Strapi's payload: { model, uid, entry }. The entry (cut to what a response shows) is built only when heard.
    for (const name of CONTENT_EVENTS) app.hooks.on(name, (event) => this.emitCommitted(name, () => ({ model: event.model, uid: event.uid, entry: event.entry })));
    app.hooks.on('server:listening', () => this.startDispatcher());
    app.hooks.on('app:destroy', () => this.dispatcher?.stop());
  }

  private get config(): WebhookSettings {
    this.settings ??= webhookSettings(this.app.config);
    return this.settings;
  }

  /** After the schema sync: the tables, the webhooks, media lifecycles and the metrics route. */
  async connect(db: Database): Promise<void> {
    const created = await ensureWebhookTables(db);
    if (created.length > 0) this.app.log.debug(`schema: created ${created.join(', ')}`);
    const bounds = { maxEntries: restConfig(this.app.config).maxPopulatedEntries, maxBytes: this.config.maxPayloadBytes };
    this.payloads = new PayloadReader(() => db, this.config.populateRelations, bounds, (message) => this.app.log.warn(message));
    this.runner.setDeclared(this.config.declared.map((webhook): Webhook => ({ ...webhook, id: webhook.name, source: 'config' })));
    this.runner.setStored(await this.store.loadForDelivery());
    for (const [action, event] of MEDIA_ACTIONS) {
      db.lifecycles.subscribe({ models: [FILE_UID], [action]: ({ result }: { result?: unknown }) => this.mediaWritten(event, result as Entity | undefined) });
    }
    this.app.routes.add('global::webhook-metrics', webhookMetricsRouter(this.app, this.outbox, this.bounds));
    await this.bounds.refresh();
  }

  /** Resumes a paused webhook (`tessera webhooks retry --webhook`); false when it was not paused. */
  async resume(webhook: Webhook): Promise<boolean> {
    return this.bounds.resume(webhookKey(webhook));
  }

  /** WriteRecorder: before a delete, the entry as a webhook would show it (only when one listens). */
  async beforeDelete(uid: string, id: number): Promise<unknown> {
    if (this.runner.forEvent('entry.delete').length === 0) return undefined;
    return this.payloads?.entry(uid, id);
  }

  /** WriteRecorder: inside the write's transaction, queue its deliveries. */
  async written(name: ContentEventName, uid: string, entry: Entity, before?: unknown): Promise<void> {
    const targets = this.admitted(name);
    if (targets.length === 0 || !this.payloads) return;
    const db = this.app.db;
    const shown = (name === 'entry.delete' ? before : await this.payloads.entry(uid, entry.id)) ?? publicEntry(uid, entry, db.metadata);
    const model = db.metadata.get(uid)?.singularName ?? uid;
    await this.enqueue(name, { model, uid, entry: shown }, `${uid}:${entry.id}`, targets);
  }

  private async mediaWritten(event: MediaEventName, file: Entity | undefined): Promise<void> {
    if (!file || !this.payloads) return;
    const info = { media: this.payloads.media(file) };
    const targets = this.admitted(event);
    if (targets.length > 0) await this.enqueue(event, info, `${FILE_UID}:${file.id}`, targets);
    await this.app.db.sql.afterCommit(() => this.emitCommitted(event, () => info));
  }

  /** The webhooks `event` is queued for: listening, enabled, not paused and not full (queue-bounds.ts). */
  private admitted(event: string): Webhook[] {
    return this.runner.forEvent(event).filter((webhook) => this.bounds.admits(webhookKey(webhook), webhook.name));
  }

  /** Delivery rows for one event, in the current transaction; the dispatcher looks once it commits. */
  private async enqueue(event: string, info: Record<string, unknown>, entryKey: string | null, targets: Webhook[]): Promise<void> {
    const eventId = randomUUID();
    // Strapi's body: { event, createdAt, ...info }. Stored as sent, so every attempt signs the same bytes.
    const payload = JSON.stringify({ event, createdAt: new Date(), ...info });
    await this.outbox.add(targets.map((webhook) => ({ eventId, webhookKey: webhookKey(webhook), webhookName: webhook.name, event, entryKey, payload })));
    await this.app.db.sql.afterCommit(() => this.dispatcher?.wake());
  }

  /**
   * After commit: tell server code on the event hub. Not awaited, as in Strapi: a slow listener never holds the
   * response back; a failing one is logged.
   */
  private emitCommitted(event: string, payload: () => Record<string, unknown>): void {
    // The runner's own subscriber ignores committed events (their deliveries were queued in the transaction).
    if (!this.eventHub.reaches(event, this.runnerSubscriber)) return;
    const info = payload();
    this.committed.add(info);
    this.eventHub.emit(event, info).catch((error: unknown) => this.app.log.error(`an event hub listener of ${event} failed`, error));
  }

  /** The runner's subscription: an event server code emitted, queued for the webhooks listening to it. */
  private async emitted(event: string, info: unknown): Promise<void> {
    if (typeof info === 'object' && info !== null && this.committed.has(info)) return;
    const targets = this.admitted(event);
    if (targets.length === 0) return;
    const record = typeof info === 'object' && info !== null && !Array.isArray(info) ? (info as Record<string, unknown>) : {};
    await this.enqueue(event, record, null, targets);
  }

  private startDispatcher(): void {
    const config = this.config;
    this.dispatcher = new Dispatcher({
      outbox: this.outbox,
      bounds: this.bounds,
      settings: config.delivery,
      defaultHeaders: config.defaultHeaders,
      targets: config.targets,
      log: () => this.app.log,
      webhook: (key) => this.runner.byKey(key),
      refresh: () => this.runner.refresh(() => this.store.loadForDelivery()),
    });
    this.dispatcher.start();
  }
}

/**
 * What a webhook is, in Strapi v4's shape (`webhookStore.findWebhooks()`
 * answers these), plus where it comes from and its signing secret.
 */

/** The events Strapi v4's webhooks know (`strapi.webhookStore.listAllowedEvents()`); plugins may add more. */
export const WEBHOOK_EVENTS = {
  ENTRY_CREATE: 'entry.create',
  ENTRY_UPDATE: 'entry.update',
  ENTRY_DELETE: 'entry.delete',
  ENTRY_PUBLISH: 'entry.publish',
  ENTRY_UNPUBLISH: 'entry.unpublish',
  MEDIA_CREATE: 'media.create',
  MEDIA_UPDATE: 'media.update',
  MEDIA_DELETE: 'media.delete',
} as const;

export type MediaEventName = 'media.create' | 'media.update' | 'media.delete';

/** A webhook as configured: Strapi's fields, and an optional secret for the signature header. */
export interface WebhookDefinition {
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
  secret?: string;
}

/** A webhook the runner knows: from `strapi_webhooks` (numeric id), from config, or added at runtime. */
export interface Webhook extends WebhookDefinition {
  id: number | string;
  source: 'database' | 'config' | 'runtime';
}

/** The stable name deliveries use for their webhook (`db:3`, `config:search-index`). */
export function webhookKey(webhook: Pick<Webhook, 'id' | 'source' | 'name'>): string {
  if (webhook.source === 'config') return `config:${webhook.name}`;
  if (webhook.source === 'runtime') return `runtime:${String(webhook.id)}`;
  return `db:${String(webhook.id)}`;
}

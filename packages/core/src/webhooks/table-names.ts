/**
 * The webhook tables' and indexes' names, in a module of their own: the table definitions (tables.ts), the
 * migration and the counters all name them, and the migration is run by tables.ts (no import cycle).
 */
export const WEBHOOKS_TABLE = 'strapi_webhooks';
export const DELIVERIES_TABLE = 'tessera_webhook_deliveries';
export const SECRETS_TABLE = 'tessera_webhook_secrets';
/** Settled counts per webhook and status (outbox-counts.ts). */
export const COUNTS_TABLE = 'tessera_webhook_counts';
/** Count changes not yet folded into COUNTS_TABLE: written by the transactions that change the outbox. */
export const COUNT_CHANGES_TABLE = 'tessera_webhook_count_changes';
/** Webhooks paused after failing for `pauseAfterMs` (webhook-pauses.ts). */
export const PAUSES_TABLE = 'tessera_webhook_pauses';

/** Serves the claim (`status = 'pending' AND next_attempt_at <= now ORDER BY next_attempt_at`) and the prunes. */
export const DUE_INDEX = 'tessera_webhook_deliveries_due';
/** Serves per-entry order: an entry's undelivered rows for a webhook, by id (failed and delivered rows are not in it). */
export const UNDELIVERED_INDEX = 'tessera_webhook_deliveries_undelivered';
/** Earlier releases' order index: every row of an entry, failed ones included (dropped by the migration). */
export const OLD_ORDER_INDEX = 'tessera_webhook_deliveries_order';

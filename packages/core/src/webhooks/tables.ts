/**
 * The tables webhooks live in. `strapi_webhooks` has Strapi v4's layout
 * (a Strapi-made database already has it and is never altered); the
 * outbox, its counters, paused webhooks and the secrets are Tessera's own
 * tables beside it.
 *
 * Created when absent, after the schema sync; an outbox made by an earlier
 * Tessera is brought up to this layout in place (outbox-migration.ts).
 * Several processes may boot at once: a create that loses the race finds
 * the table there and moves on.
 */
import type { Database } from '@tessera/database';
import { migrateOutbox } from './outbox-migration';
import { COUNT_CHANGES_TABLE, COUNTS_TABLE, DELIVERIES_TABLE, DUE_INDEX, OLD_ORDER_INDEX, PAUSES_TABLE, SECRETS_TABLE, UNDELIVERED_INDEX, WEBHOOKS_TABLE } from './table-names';

export { COUNT_CHANGES_TABLE, COUNTS_TABLE, DELIVERIES_TABLE, DUE_INDEX, OLD_ORDER_INDEX, PAUSES_TABLE, SECRETS_TABLE, UNDELIVERED_INDEX, WEBHOOKS_TABLE } from './table-names';

/** knex's table builder, named through the connection (the kernel does not depend on knex itself). */
type TableBuilder = Parameters<Parameters<Database['sql']['knex']['schema']['createTable']>[1]>[0];


export function buildDeliveries(table: TableBuilder): void {
  table.increments('id');
  /** One event fanned out to several webhooks shares this id (the X-Tessera-Event-Id header). */
  table.string('event_id', 36).notNullable();
  table.string('webhook_key', 255).notNullable();
  table.string('webhook_name', 255);
  table.string('event', 255).notNullable();
  /** Deliveries of one entry to one webhook go out in id order (`api::article.article:4`). */
  table.string('entry_key', 255);
  /** The request body exactly as sent (and signed). */
  table.text('payload').notNullable();
  /** queued (behind an earlier delivery of its entry), pending, sending, delivered, failed. */
  table.string('status', 16).notNullable();
  table.integer('attempts').notNullable().defaultTo(0);
  // Times are epoch milliseconds: the same on every dialect, compared without time-zone casts. For a pending row
  // next_attempt_at is when it is due; for a delivered or failed one, when it settled (what the prunes order by).
  table.bigInteger('next_attempt_at').notNullable();
  table.bigInteger('locked_until');
  table.string('locked_by', 64);
  table.integer('last_status');
  table.text('last_error');
  table.bigInteger('created_at').notNullable();
  table.bigInteger('delivered_at');
  /** 1 while queued, pending or sending; NULL once delivered or failed (so the order index holds undelivered rows only at its head). */
  table.integer('undelivered');
  table.index(['status', 'next_attempt_at'], DUE_INDEX);
  table.index(['webhook_key', 'entry_key', 'undelivered', 'id'], UNDELIVERED_INDEX);
}

const TABLES: Array<[string, (table: TableBuilder) => void]> = [
  [
    WEBHOOKS_TABLE,
    (table) => {
      // Strapi v4's webhook model: no timestamps, JSON headers and events (jsonb on PostgreSQL, as Strapi makes it).
      table.increments('id');
      table.string('name', 255).nullable();
      table.text('url').nullable();
      table.jsonb('headers').nullable();
      table.jsonb('events').nullable();
      table.boolean('enabled').nullable();
    },
  ],
  [DELIVERIES_TABLE, buildDeliveries],
  [
    SECRETS_TABLE,
    (table) => {
      table.integer('webhook_id').primary();
      table.text('secret').notNullable();
    },
  ],
  [
    COUNTS_TABLE,
    (table) => {
      table.string('webhook_key', 255).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('n').notNullable().defaultTo(0);
      table.primary(['webhook_key', 'status']);
    },
  ],
  [
    COUNT_CHANGES_TABLE,
    (table) => {
      table.increments('id');
      table.string('webhook_key', 255).notNullable();
      table.string('status', 16).notNullable();
      table.integer('n').notNullable();
    },
  ],
  [
    PAUSES_TABLE,
    (table) => {
      table.string('webhook_key', 255).primary();
      table.bigInteger('paused_at').notNullable();
      table.text('reason');
    },
  ],
];

/** Creates the missing tables and migrates an older outbox; returns the names it created. */
export async function ensureWebhookTables(db: Database): Promise<string[]> {
  const created: string[] = [];
  const connection = db.sql;
  const hadOutbox = await connection.tableExists(DELIVERIES_TABLE);
  for (const [name, build] of TABLES) {
    if (await connection.tableExists(name)) continue;
    try {
      await connection.runSchema(connection.knex.schema.createTable(name, build));
      created.push(name);
    } catch (error) {
      if (!(await connection.tableExists(name))) throw error;
    }
  }
  if (hadOutbox) await migrateOutbox(db, created.includes(COUNTS_TABLE));
  return created;
}

/**
 * The tables webhooks live in. `strapi_webhooks` has Strapi v4's layout
 * (a Strapi-made database already has it and is never altered); the
 * outbox and the secrets are Tessera's own tables beside it.
 *
 * Created when absent, after the schema sync. Several processes may boot at
 * once: a create that loses the race finds the table there and moves on.
 */
import type { Database } from '@tessera/database';

/** knex's table builder, named through the connection (the kernel does not depend on knex itself). */
type TableBuilder = Parameters<Parameters<Database['sql']['knex']['schema']['createTable']>[1]>[0];

export const WEBHOOKS_TABLE = 'strapi_webhooks';
export const DELIVERIES_TABLE = 'tessera_webhook_deliveries';
export const SECRETS_TABLE = 'tessera_webhook_secrets';

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
  [
    DELIVERIES_TABLE,
    (table) => {
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
      table.string('status', 16).notNullable();
      table.integer('attempts').notNullable().defaultTo(0);
      // Times are epoch milliseconds: the same on every dialect, compared without time-zone casts.
      table.bigInteger('next_attempt_at').notNullable();
      table.bigInteger('locked_until');
      table.string('locked_by', 64);
      table.integer('last_status');
      table.text('last_error');
      table.bigInteger('created_at').notNullable();
      table.bigInteger('delivered_at');
      table.index(['status', 'next_attempt_at'], 'tessera_webhook_deliveries_due');
      table.index(['webhook_key', 'entry_key', 'id'], 'tessera_webhook_deliveries_order');
    },
  ],
  [
    SECRETS_TABLE,
    (table) => {
      table.integer('webhook_id').primary();
      table.text('secret').notNullable();
    },
  ],
];

/** Creates the missing tables; returns the names it created. */
export async function ensureWebhookTables(db: Database): Promise<string[]> {
  const created: string[] = [];
  const connection = db.sql;
  for (const [name, build] of TABLES) {
    if (await connection.tableExists(name)) continue;
    try {
      await connection.runSchema(connection.knex.schema.createTable(name, build));
      created.push(name);
    } catch (error) {
      if (!(await connection.tableExists(name))) throw error;
    }
  }
  return created;
}

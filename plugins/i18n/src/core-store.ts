/**
 * Strapi v4's core store (`strapi_core_store_settings`), where its i18n
 * plugin keeps the default locale (`plugin_i18n_default_locale` = `"en"`,
 * a JSON value). A Strapi-made database's row is read as it is; a fresh
 * database gets the table with Strapi's columns.
 */
import type { Database } from '@tessera/database';

const TABLE = 'strapi_core_store_settings';

export class CoreStore {
  constructor(private readonly db: Database) {}

  async ensureTable(): Promise<void> {
    const schema = this.db.connection.builder.schema;
    if (await schema.hasTable(TABLE)) return;
    await this.db.connection.builder.schema.createTable(TABLE, (table) => {
      table.increments('id');
      table.string('key', 255);
      table.text('value');
      table.string('type', 255);
      table.string('environment', 255);
      table.string('tag', 255);
    });
  }

  async get(key: string): Promise<unknown> {
    const row = await this.db.connection.first(this.db.connection.knex.from(TABLE).select('value').where('key', key).orderBy('id', 'asc').limit(1));
    if (!row || row.value === null || row.value === undefined) return undefined;
    try {
      return JSON.parse(String(row.value));
    } catch {
      return row.value;
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    const knex = this.db.connection.knex;
    const text = JSON.stringify(value);
    const type = Array.isArray(value) ? 'array' : typeof value;
    await this.db.transaction(async () => {
      const existing = await this.db.connection.first(knex.from(TABLE).select('id').where('key', key).limit(1));
      if (existing) await this.db.connection.run(knex(TABLE).update({ value: text, type }).where('id', Number(existing.id)));
      else await this.db.connection.run(knex(TABLE).insert({ key, value: text, type, environment: null, tag: null }));
    });
  }
}

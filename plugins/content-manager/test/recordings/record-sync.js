/**
 * Records how Strapi 4.26.2 syncs stored configurations at boot (sync-scenario.js), on a stopped peer's SQLite file:
 *   node record-sync.js before <peer db>                 writes the scenario's values into strapi_core_store_settings
 *   (start the peer: it syncs at boot; stop it)
 *   node record-sync.js after <peer db> <out.json>        writes what the peer stored, by key (null: deleted)
 */
const fs = require('node:fs');
const path = require('node:path');
const Database = require('better-sqlite3');
const [mode, file, outFile] = process.argv.slice(2);
const scenario = require('./sync-scenario.js');
const key = (suffix) => `plugin_content_manager_configuration_${suffix}`;

const db = new Database(file);
if (mode === 'before') {
  for (const [suffix, value] of Object.entries(scenario)) {
    const existing = db.prepare('select id from strapi_core_store_settings where key = ?').get(key(suffix));
    if (existing) db.prepare('update strapi_core_store_settings set value = ? where id = ?').run(JSON.stringify(value), existing.id);
    else db.prepare("insert into strapi_core_store_settings (key, value, type) values (?, ?, 'object')").run(key(suffix), JSON.stringify(value));
  }
} else {
  const after = {};
  for (const suffix of Object.keys(scenario)) {
    const row = db.prepare('select value from strapi_core_store_settings where key = ?').get(key(suffix));
    after[suffix] = row ? JSON.parse(row.value) : null;
  }
  fs.writeFileSync(path.resolve(__dirname, outFile), JSON.stringify({ strapi: '4.26.2', synced: after }, null, 1) + '\n');
}
db.close();

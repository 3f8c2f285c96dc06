#!/usr/bin/env node
/**
 * Copies every row of a Strapi-made SQLite database into the tables Strapi
 * 4.26.2 created on MySQL/MariaDB for the same app (see make-fixture.sh): the
 * schema is Strapi's own, the rows are Strapi's own, ids kept. SQLite's
 * datetimes (epoch ms) become MySQL datetimes in UTC; everything else is
 * copied as stored. Tables Strapi filled at its MySQL boot are emptied first.
 *
 *   node scripts/strapi-mysql/copy-rows.js <sqlite file> <mysql database>
 *   (TESSERA_TEST_MYSQL_HOST/_PORT/_USER/_PASSWORD as the tests use them)
 */
const Database = require('better-sqlite3');
const mysql = require('mysql2/promise');

async function main() {
  const [file, database] = process.argv.slice(2);
  if (!file || !database) throw new Error('usage: copy-rows.js <sqlite file> <mysql database>');
  const source = new Database(file, { readonly: true, fileMustExist: true });
  const target = await mysql.createConnection({
    host: process.env.TESSERA_TEST_MYSQL_HOST || '127.0.0.1',
    port: Number(process.env.TESSERA_TEST_MYSQL_PORT || 3306),
    user: process.env.TESSERA_TEST_MYSQL_USER || 'tessera',
    password: process.env.TESSERA_TEST_MYSQL_PASSWORD || 'tessera',
    database,
    timezone: 'Z',
  });
  await target.query('SET foreign_key_checks = 0');
  const [columns] = await target.query('SELECT table_name AS t, column_name AS c, data_type AS type FROM information_schema.columns WHERE table_schema = DATABASE()');
  const types = new Map();
  for (const { t, c, type } of columns) {
    if (!types.has(t)) types.set(t, new Map());
    types.get(t).set(c, type);
  }
  for (const table of types.keys()) await target.query('DELETE FROM ??', [table]);
  const tables = source.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all().map((row) => row.name);
  for (const table of tables) {
    const wanted = types.get(table);
    if (!wanted) {
      console.log(`skipped ${table}: Strapi made no such table on MySQL`);
      continue;
    }
    const rows = source.prepare(`SELECT * FROM "${table}"`).all();
    for (const row of rows) {
      const names = Object.keys(row).filter((name) => wanted.has(name));
      const values = names.map((name) => convert(row[name], wanted.get(name)));
      await target.query(`INSERT INTO ?? (${names.map(() => '??').join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, [table, ...names, ...values]);
    }
    console.log(`${table}: ${rows.length} rows`);
  }
  await target.query('SET foreign_key_checks = 1');
  await target.end();
}

function convert(value, type) {
  if (value === null) return null;
  if ((type === 'datetime' || type === 'timestamp') && typeof value === 'number') return new Date(value);
  if ((type === 'datetime' || type === 'timestamp') && /^\d+$/.test(String(value))) return new Date(Number(value));
  return value;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

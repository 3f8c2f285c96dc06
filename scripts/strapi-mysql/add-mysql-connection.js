#!/usr/bin/env node
/**
 * Gives a Strapi app's config/database.js (the peer's, ../shared/strapi4-peer/app/config/database.js: sqlite and
 * postgres only) a `mysql2` connection, Strapi 4.26's client name for mysql2, read from the same DATABASE_*
 * variables (defaults: the test suite's MariaDB, 127.0.0.1:3306, tessera/tessera). Tessera serves the same config
 * (it takes `mysql2` as `mysql`). Adds nothing when the file has one already.
 *
 *   node scripts/strapi-mysql/add-mysql-connection.js <app>/config/database.js
 */
const fs = require('node:fs');

const file = process.argv[2];
if (!file) throw new Error('usage: add-mysql-connection.js <config/database.js>');
const text = fs.readFileSync(file, 'utf8');
if (!text.includes('mysql2:')) {
  if (!text.includes('    sqlite: {')) throw new Error(`${file}: no "    sqlite: {" entry to add the mysql2 connection before`);
  fs.writeFileSync(
    file,
    text.replace(
      '    sqlite: {',
      `    mysql2: {
      connection: {
        host: env('DATABASE_HOST', '127.0.0.1'),
        port: env.int('DATABASE_PORT', 3306),
        database: env('DATABASE_NAME', 'strapi'),
        user: env('DATABASE_USERNAME', 'tessera'),
        password: env('DATABASE_PASSWORD', 'tessera'),
      },
      pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) },
    },
    sqlite: {`,
    ),
  );
}

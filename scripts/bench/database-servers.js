'use strict';
/**
 * The database servers the bench uses beside SQLite files: where PostgreSQL
 * and MySQL/MariaDB are, a client for each, and one database of the bench's
 * own per run (a PostgreSQL schema, a MySQL database named `bench_…`), made
 * and dropped here.
 *
 * PostgreSQL: BENCH_PG_HOST/PORT/DATABASE/USER/PASSWORD (default 127.0.0.1:5432,
 * database test, user postgres). MySQL/MariaDB: BENCH_MYSQL_HOST/PORT/USER/PASSWORD
 * (default 127.0.0.1:3306, tessera/tessera, the test suite's user).
 */
const POSTGRES = {
  host: process.env.BENCH_PG_HOST || '127.0.0.1',
  port: Number(process.env.BENCH_PG_PORT || 5432),
  database: process.env.BENCH_PG_DATABASE || 'test',
  user: process.env.BENCH_PG_USER || 'postgres',
  password: process.env.BENCH_PG_PASSWORD || '',
};

const MYSQL = {
  host: process.env.BENCH_MYSQL_HOST || '127.0.0.1',
  port: Number(process.env.BENCH_MYSQL_PORT || 3306),
  user: process.env.BENCH_MYSQL_USER || 'tessera',
  password: process.env.BENCH_MYSQL_PASSWORD ?? 'tessera',
};

async function withPostgres(work) {
  const { Client } = require('pg');
  const client = new Client(POSTGRES);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A mysql2/promise connection; `database` when given. */
async function withMysql(work, database) {
  const mysql = require('mysql2/promise');
  const client = await mysql.createConnection({ ...MYSQL, database, timezone: 'Z', connectTimeout: 3000 });
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Whether the server of `dialect` answers (the bench then measures it; otherwise it says so and skips it). */
async function reachable(dialect) {
  try {
    if (dialect === 'postgres') {
      const { Client } = require('pg');
      const client = new Client({ ...POSTGRES, connectionTimeoutMillis: 3000 });
      try {
        await client.connect();
      } finally {
        await client.end().catch(() => undefined);
      }
    } else if (dialect === 'mysql') {
      await withMysql(async () => undefined);
    }
    return true;
  } catch {
    return false;
  }
}

/** Where each server is, for messages. */
function serverAddress(dialect) {
  const { host, port } = dialect === 'mysql' ? MYSQL : POSTGRES;
  return `${host}:${port}`;
}

/** A fresh database of the bench's own: `{ dialect, schema }` (a PostgreSQL schema or a MySQL database). */
async function createServerDatabase(dialect) {
  const schema = `bench_${process.pid}_${Date.now()}`;
  if (dialect === 'mysql') {
    // As Strapi 4.26.2 and Tessera's tests create them.
    await withMysql((client) => client.query(`CREATE DATABASE \`${schema}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`));
  } else {
    await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
  }
  return { dialect, schema };
}

/** Drops what createServerDatabase made (no-op for SQLite: its file goes with the temp folder). */
async function dropDatabase(database) {
  if (database.dialect === 'postgres') await withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${database.schema}" CASCADE`));
  if (database.dialect === 'mysql') await withMysql((client) => client.query(`DROP DATABASE IF EXISTS \`${database.schema}\``));
}

/** Tessera's `database.connection` for a database of the run (the child apps must match the seeding app). */
function connectionConfig(database) {
  if (database.dialect === 'postgres') return { client: 'postgres', connection: { ...POSTGRES, schema: database.schema }, pool: { min: 0, max: 10 } };
  if (database.dialect === 'mysql') return { client: 'mysql', connection: { ...MYSQL, database: database.schema }, pool: { min: 0, max: 10 } };
  return { client: 'sqlite', connection: { filename: database.file } };
}

module.exports = { POSTGRES, MYSQL, withPostgres, withMysql, reachable, serverAddress, createServerDatabase, dropDatabase, connectionConfig };

'use strict';
/**
 * The baseline's MySQL/MariaDB access (baseline-database.js has the shape): a mysql2 pool of Tessera's size, each
 * connection set up as Tessera sets up its sessions, each statement sent through `query` with the bindings as
 * Tessera sends them (client-side binding, as Tessera does: mysql2's server-side prepared statements refuse some
 * bindings knex makes). Reads resolve with rows; an INSERT with `[{ id }]`, as Tessera's driver answers it (MySQL
 * has no RETURNING).
 */
const mysql = require('mysql2');

/** Tessera's mysql2 options (packages/database connection/mysql-driver.ts): the values come back as Tessera reads them. */
function driverOptions(connection) {
  return {
    ...connection,
    charset: 'utf8mb4',
    timezone: 'Z',
    dateStrings: ['DATE'],
    supportBigNumbers: true,
    bigNumberStrings: true,
    typeCast(field, next) {
      if (field.type === 'NEWDECIMAL' || field.type === 'DECIMAL') return field.string();
      if (field.type === 'TINY' && field.length === 1) {
        const value = field.string();
        return value === null ? null : value === '1';
      }
      if (field.type === 'JSON') return field.string();
      return next();
    },
  };
}

const SESSION = ["SET time_zone = '+00:00', SESSION sql_mode = CONCAT(@@sql_mode, ',PIPES_AS_CONCAT')", 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'];

/** As Tessera's driver binds: booleans as 1/0, undefined as NULL. */
function value(binding) {
  if (binding === undefined) return null;
  if (typeof binding === 'boolean') return binding ? 1 : 0;
  return binding;
}

function send(connection, sql, bindings) {
  return new Promise((resolve, reject) => {
    connection.query({ sql, values: bindings.map(value) }, (error, result) => {
      if (error) return reject(error);
      if (Array.isArray(result)) return resolve(result);
      resolve(result.insertId > 0 && /^\s*insert\b/i.test(sql) ? [{ id: result.insertId }] : []);
    });
  });
}

function mysqlDatabase(config) {
  const pool = mysql.createPool({ ...driverOptions(config.connection), connectionLimit: config.poolMax ?? 10, waitForConnections: true });
  const ready = new WeakSet();
  /** A pooled connection with Tessera's session settings (set once per connection). */
  const acquire = () =>
    new Promise((resolve, reject) => {
      pool.getConnection(async (error, connection) => {
        if (error) return reject(error);
        try {
          if (!ready.has(connection)) {
            for (const sql of SESSION) await send(connection, sql, []);
            ready.add(connection);
          }
          resolve(connection);
        } catch (failure) {
          connection.destroy();
          reject(failure);
        }
      });
    });
  return {
    async run(name, index, bindings, sql) {
      const connection = await acquire();
      try {
        return await send(connection, sql, bindings);
      } finally {
        connection.release();
      }
    },
    /** One transaction on one connection, as Tessera's writes. */
    async transaction(work) {
      const connection = await acquire();
      try {
        await send(connection, 'BEGIN', []);
        const result = await work((name, index, bindings, sql) => send(connection, sql, bindings));
        await send(connection, 'COMMIT', []);
        return result;
      } catch (error) {
        await send(connection, 'ROLLBACK', []).catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    close: () => new Promise((resolve) => pool.end(() => resolve())),
  };
}

module.exports = { mysqlDatabase };

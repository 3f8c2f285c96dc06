'use strict';
/**
 * The baseline's database access, one shape for the three dialects:
 * `run(name, index, bindings, sql)` resolves with the rows of statement `index`
 * of plan `name` (the SQL Tessera ran, verbatim; `sql` is that text, or on
 * MySQL the same statement with as many id placeholders as this request has
 * ids), `transaction(work)`, `close()`.
 *
 * - SQLite: better-sqlite3 with Tessera's pragmas (WAL, synchronous NORMAL,
 *   foreign keys, mmap), each statement prepared once.
 * - PostgreSQL: a pg pool of Tessera's size, each statement a named prepared
 *   statement (prepared once per connection by the driver, as Tessera does),
 *   `search_path` set to the bench schema.
 * - MySQL/MariaDB: a mysql2 pool of Tessera's size with Tessera's driver
 *   options (UTC, decimals and big integers as strings, DATE as text,
 *   tinyint(1) as booleans, JSON as text) and session (UTC, `||` concatenates,
 *   READ COMMITTED), statements through `query` as Tessera sends them.
 */
const Database = require('better-sqlite3');
const { Pool, types } = require('pg');
const { SqliteLimits } = require('@tessera/database');

/** The type parsers Tessera's connection sets: dates stay text, timestamps are UTC, big numbers stay strings. */
const PG_TYPES = {
  getTypeParser(oid, format) {
    if (oid === 1114) return (value) => new Date(`${value.replace(' ', 'T')}Z`);
    if (oid === 1082 || oid === 20 || oid === 1700) return (value) => value;
    return types.getTypeParser(oid, format ?? 'text');
  },
};

function openBaselineDatabase(config, plans) {
  if (config.dialect === 'mysql') return require('./baseline-mysql').mysqlDatabase(config);
  return config.dialect === 'postgres' ? postgres(config, plans) : sqlite(config, plans);
}

function sqlite(config, plans) {
  const db = new Database(config.file);
  db.pragma('foreign_keys = ON');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('mmap_size = 268435456'); // as Tessera's read handle does
  // Tessera registers this for its `$…i` operators; captured SQL may call it.
  db.function('tessera_lower', { deterministic: true }, (value) => (value === null ? null : String(value).toLowerCase()));
  // Tessera's connection writes LIMIT values into SQLite's statement text (a bound LIMIT makes SQLite re-prepare the
  // statement on every run); the captured statements show them bound, and the baseline runs what Tessera runs.
  const limits = new SqliteLimits();
  /** Prepared once per statement text; a scenario whose SQL does not prepare fails its verification loudly. */
  const prepared = new Map();
  for (const queries of Object.values(plans)) {
    for (const query of queries) {
      try {
        prepare(limits.inline(query).sql);
      } catch {
        // run() throws the same error for the scenario that needs it.
      }
    }
  }
  function prepare(sql) {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  }
  const run = async (name, index, bindings, sql = plans[name][index].sql) => {
    const inlined = limits.inline({ sql, bindings });
    const statement = prepare(inlined.sql);
    if (statement.reader) return statement.all(...inlined.bindings);
    statement.run(...inlined.bindings);
    return [];
  };
  return {
    run,
    /** One write transaction, as Tessera's (IMMEDIATE: it takes the write lock first). */
    async transaction(work) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(run);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    async close() {
      db.close();
    },
  };
}

function postgres(config, plans) {
  const { schema, ...connection } = config.connection;
  const pool = new Pool({ ...connection, max: config.poolMax ?? 10, options: `-c search_path="${schema}"`, types: PG_TYPES });
  // The captured SQL is what Tessera sent pg: native `$n` placeholders.
  const statement = (name, index, bindings) => ({ name: `baseline_${name}_${index}`, text: plans[name][index].sql, values: bindings });
  return {
    async run(name, index, bindings) {
      return (await pool.query(statement(name, index, bindings))).rows;
    },
    /** One transaction on one connection, as Tessera's writes. */
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(async (name, index, bindings) => (await client.query(statement(name, index, bindings))).rows);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

module.exports = { openBaselineDatabase };

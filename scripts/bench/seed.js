'use strict';
/**
 * Seed: a fresh copy of apps/example in a temp folder with its own SQLite
 * database (or its own PostgreSQL schema or MySQL database), filled with a realistic blog of
 * any size.
 *
 * The schema comes from Tessera itself (the app is loaded once so schema sync
 * creates every table and join table), then rows are written with direct SQL
 * in one transaction: going through the API would take minutes and relation
 * writing through the API is not what is being measured. Rows follow what
 * Tessera/Strapi v4 store: on SQLite datetimes as epoch milliseconds, booleans
 * 0/1, JSON as text; every relation in its `<table>_<attr>_links` join table
 * with Strapi v4's order columns.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');
const { App } = require('@tessera/core');
const restPlugin = require('@tessera/plugin-rest').default;
const { POSTGRES, withPostgres, withMysql, reachable, createServerDatabase, dropDatabase, connectionConfig } = require('./database-servers');

const REPO_ROOT = path.resolve(__dirname, '../..');
const EXAMPLE_APP = path.join(REPO_ROOT, 'apps/example');

const COUNTS = { articles: 10000, categories: 10, tags: 20, writers: 20, tagsPerArticle: 3 };
const STATUSES = ['draft_review', 'approved', 'archived'];
const WORDS = (
  'fast content api server headless strapi contract query engine relation populate filter sort page cache ' +
  'sqlite postgres index token draft publish schema migration writer editor category tag article summary ' +
  'deploy latency throughput benchmark kernel plugin router middleware policy lifecycle component media'
).split(' ');

/** Deterministic pseudo-random numbers, so every run seeds the same data. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Config every process of the run shares (the child apps must match the seeding app). */
function appConfig(database) {
  return {
    database: { connection: connectionConfig(database) },
    server: { host: '127.0.0.1', port: 0, logger: { level: 'silent' } },
    admin: { apiToken: { salt: 'bench-salt' } },
  };
}

/**
 * The search and index options a large table wants (README: Search and index
 * options): `title` search-indexed, `views` and `published_at` b-tree indexed.
 */
function addIndexOptions(dir) {
  const file = path.join(dir, 'src/api/article/content-types/article/schema.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
  schema.attributes.title.pluginOptions = { tessera: { search: true } };
  schema.attributes.views.index = true;
  schema.pluginOptions = { ...schema.pluginOptions, tessera: { indexes: [['publishedAt', 'views']] } };
  fs.writeFileSync(file, JSON.stringify(schema, null, 2));
}

/** Copies the example app, lets Tessera create the schema, creates a token. */
async function prepareApp({ dialect, indexes }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  for (const part of ['config', 'src']) fs.cpSync(path.join(EXAMPLE_APP, part), path.join(dir, part), { recursive: true });
  if (indexes) addIndexOptions(dir);
  let database;
  if (dialect === 'postgres' || dialect === 'mysql') {
    database = await createServerDatabase(dialect);
  } else {
    database = { dialect, file: path.join(dir, '.tmp', 'data.db') };
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
  }
  const config = appConfig(database);
  const app = new App({ dir, plugins: [restPlugin], config });
  try {
    await app.load();
    const { accessKey } = await app.apiTokens.create({ name: 'bench-full-access', type: 'full-access' });
    return { dir, database, dbFile: database.file, config, token: accessKey };
  } finally {
    await app.destroy();
  }
}

function sentence(rand, words) {
  const out = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  const text = out.join(' ');
  return text[0].toUpperCase() + text.slice(1);
}

function paragraph(rand, sentences) {
  const out = [];
  for (let i = 0; i < sentences; i += 1) out.push(`${sentence(rand, 8 + Math.floor(rand() * 8))}.`);
  return out.join(' ');
}

/**
 * The blog, row by row: `[table, row]` with JS values (Date, boolean, object);
 * each database's writer stores them in its own form. Deterministic.
 */
function* blogRows(articles) {
  const rand = random(42);
  const base = Date.UTC(2024, 0, 1);
  const stamp = (i) => new Date(base + i * 60_000);
  // Inverse-side order columns count the position of the article in the target's list (1..N).
  const inverseOrder = { category: new Map(), writer: new Map(), tag: new Map() };
  const next = (map, key) => {
    const value = (map.get(key) ?? 0) + 1;
    map.set(key, value);
    return value;
  };
  const t0 = stamp(0);
  for (let id = 1; id <= COUNTS.categories; id += 1) yield ['categories', { id, name: `Category ${id}`, created_at: t0, updated_at: t0 }];
  for (let id = 1; id <= COUNTS.tags; id += 1) yield ['tags', { id, name: `tag-${WORDS[id]}`, created_at: t0, updated_at: t0 }];
  for (let id = 1; id <= COUNTS.writers; id += 1) {
    yield ['writers', { id, name: `Writer ${id}`, email: `writer${id}@example.com`, created_at: t0, updated_at: t0 }];
  }
  for (let id = 1; id <= articles; id += 1) {
    const created = stamp(id);
    const title = `Article ${id}: ${sentence(rand, 5)}`;
    yield ['articles', {
      id,
      title,
      slug: `article-${id}`,
      body: `## ${title}\n\n${paragraph(rand, 4)}\n\n${paragraph(rand, 4)}`,
      summary: paragraph(rand, 2),
      featured: rand() < 0.1,
      views: Math.floor(rand() * 100000),
      rating: Math.round(rand() * 500) / 100,
      publish_date: created.toISOString().slice(0, 10),
      status: STATUSES[id % STATUSES.length],
      meta: { readingMinutes: 1 + (id % 12), source: 'bench' },
      created_at: created,
      updated_at: new Date(created.getTime() + 1000),
      published_at: id % 3 === 0 ? null : new Date(created.getTime() + 2000),
    }];
    yield ['components_shared_seos', { id, meta_title: title.slice(0, 60), meta_description: paragraph(rand, 1) }];
    yield ['articles_components', { entity_id: id, component_id: id, component_type: 'shared.seo', field: 'seo', order: 1 }];
    const category = 1 + (id % COUNTS.categories);
    yield ['articles_category_links', { article_id: id, category_id: category, article_order: next(inverseOrder.category, category) }];
    const writer = 1 + ((id * 7) % COUNTS.writers);
    yield ['articles_author_links', { article_id: id, writer_id: writer, article_order: next(inverseOrder.writer, writer) }];
    for (let k = 0; k < COUNTS.tagsPerArticle; k += 1) {
      const tag = 1 + ((id + k * 7) % COUNTS.tags);
      yield ['articles_tags_links', { article_id: id, tag_id: tag, tag_order: k + 1, article_order: next(inverseOrder.tag, tag) }];
    }
  }
}

/** As Tessera/Strapi v4 store values on SQLite: datetimes as epoch ms, booleans 0/1, JSON as text. */
function sqliteValue(value) {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** Prints a progress bar for `done` of `total` articles on one line. */
function progress(done, total) {
  if (!process.stdout.isTTY && done !== total) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stdout.write(`\r  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} articles`);
  if (done === total) process.stdout.write('\n');
}

/** Inserts the blog into a SQLite file, in one transaction. */
function insertSqlite(dbFile, articles) {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  const statements = new Map();
  const insert = (table, row) => {
    let statement = statements.get(table);
    if (!statement) {
      const columns = Object.keys(row);
      statement = db.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      statements.set(table, statement);
    }
    statement.run(...Object.values(row).map(sqliteValue));
  };
  db.transaction(() => {
    for (const [table, row] of blogRows(articles)) {
      insert(table, row);
      if (table === 'articles' && (row.id % 10000 === 0 || row.id === articles)) progress(row.id, articles);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/**
 * Inserts the blog into a server database with multi-row INSERTs in one transaction, as many rows per INSERT as the
 * 65,535 bind parameters of PostgreSQL and MySQL allow (fewer round trips). `client` is
 * `{ query(sql, values), quote(name), placeholder(n) }`.
 */
async function insertBatched(client, articles) {
  const batches = new Map();
  const flush = async (table) => {
    const rows = batches.get(table);
    if (!rows || rows.length === 0) return;
    const columns = Object.keys(rows[0]);
    const values = [];
    const tuples = rows.map((row) => `(${columns.map((column) => {
      const value = row[column];
      values.push(value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value);
      return client.placeholder(values.length);
    }).join(', ')})`);
    await client.query(`INSERT INTO ${client.quote(table)} (${columns.map(client.quote).join(', ')}) VALUES ${tuples.join(', ')}`, values);
    batches.set(table, []);
  };
  for (const [table, row] of blogRows(articles)) {
    if (!batches.has(table)) batches.set(table, []);
    batches.get(table).push(row);
    // Flush every table, in first-seen order, so referenced rows always land before their links (FKs).
    if (batches.get(table).length * Object.keys(row).length >= 60000) for (const name of batches.keys()) await flush(name);
    if (table === 'articles' && (row.id % 10000 === 0 || row.id === articles)) progress(row.id, articles);
  }
  for (const table of batches.keys()) await flush(table);
}

/** The blog in a Postgres schema, then the id sequences and the statistics. */
async function insertPostgres(schema, articles) {
  await withPostgres(async (client) => {
    await client.query(`SET search_path TO "${schema}"`);
    await client.query('BEGIN');
    await insertBatched({ query: (sql, values) => client.query(sql, values), quote: (name) => `"${name}"`, placeholder: (n) => `$${n}` }, articles);
    for (const table of ['categories', 'tags', 'writers', 'articles', 'components_shared_seos']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT max(id) FROM "${table}"))`);
    }
    await client.query('COMMIT');
    // As autovacuum leaves a table soon after a bulk insert (the bench's local cluster runs with it off): planner
    // statistics, and the visibility map without which no index-only scan can skip the table (a count would read every row).
    await client.query('VACUUM ANALYZE');
  });
}

/** The blog in a MySQL/MariaDB database (datetimes in UTC, as Tessera and Strapi store them), then the statistics. */
async function insertMysql(database, articles) {
  await withMysql(async (client) => {
    await client.query("SET time_zone = '+00:00'");
    await client.beginTransaction();
    // AUTO_INCREMENT moves past the ids written, so later creates get the next ones (no sequence to set).
    await insertBatched({ query: (sql, values) => client.query(sql, values), quote: (name) => `\`${name}\``, placeholder: () => '?' }, articles);
    await client.commit();
    const [tables] = await client.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()');
    await client.query(`ANALYZE TABLE ${tables.map((table) => `\`${table.name}\``).join(', ')}`);
  }, database);
}

/**
 * A seeded app folder: `{ dir, database, dbFile, config, token }`.
 * Options: `articles` (default 10,000), `dialect` ('sqlite' | 'postgres' | 'mysql'),
 * `indexes` (declare the search and index options on articles).
 */
async function seed({ articles = COUNTS.articles, dialect = 'sqlite', indexes = false } = {}) {
  const prepared = await prepareApp({ dialect, indexes });
  if (dialect === 'postgres') await insertPostgres(prepared.database.schema, articles);
  else if (dialect === 'mysql') await insertMysql(prepared.database.schema, articles);
  else insertSqlite(prepared.dbFile, articles);
  return prepared;
}

/** Ids of published articles (the seed makes every third one a draft). */
function publishedIds(articles = COUNTS.articles) {
  const ids = [];
  for (let id = 1; id <= articles; id += 1) if (id % 3 !== 0) ids.push(id);
  return ids;
}

/** Whether the bench's PostgreSQL answers (kept for scale.js). */
function postgresReachable() {
  return reachable('postgres');
}

module.exports = { seed, dropDatabase, appConfig, publishedIds, postgresReachable, COUNTS, POSTGRES };

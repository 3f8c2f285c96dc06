'use strict';
/**
 * Seed: a fresh copy of apps/example in a temp folder with its own SQLite
 * database, filled with a realistic blog.
 *
 * The schema comes from Tessera itself (the app is loaded once so schema sync
 * creates every table and join table), then rows are written with direct SQL
 * in one transaction: going through the API would take minutes and relation
 * writing through the API is not what is being measured. Rows follow what
 * Tessera/Strapi v4 store on SQLite: datetimes as epoch milliseconds, booleans
 * 0/1, JSON as text, every relation in its `<table>_<attr>_links` join table
 * with Strapi v4's order columns.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');
const { App } = require('@tessera/core');
const restPlugin = require('@tessera/plugin-rest').default;

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
function appConfig(dbFile) {
  return {
    database: { connection: { client: 'sqlite', connection: { filename: dbFile } } },
    server: { host: '127.0.0.1', port: 0, logger: { level: 'silent' } },
    admin: { apiToken: { salt: 'bench-salt' } },
  };
}

/** Copies the example app, lets Tessera create the schema, creates a token. */
async function prepareApp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  for (const part of ['config', 'src']) fs.cpSync(path.join(EXAMPLE_APP, part), path.join(dir, part), { recursive: true });
  const dbFile = path.join(dir, '.tmp', 'data.db');
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const config = appConfig(dbFile);
  const app = new App({ dir, plugins: [restPlugin], config });
  try {
    await app.load();
    const { accessKey } = await app.apiTokens.create({ name: 'bench-full-access', type: 'full-access' });
    return { dir, dbFile, config, token: accessKey };
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

/** Inserts the blog into `dbFile` in one transaction. */
function insertRows(dbFile) {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  const rand = random(42);
  const base = Date.UTC(2024, 0, 1);
  const stamp = (i) => base + i * 60_000;
  const sql = {
    category: db.prepare('INSERT INTO categories (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)'),
    tag: db.prepare('INSERT INTO tags (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)'),
    writer: db.prepare('INSERT INTO writers (id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)'),
    article: db.prepare(
      `INSERT INTO articles (id, title, slug, body, summary, featured, views, rating, publish_date, status, meta,
        created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    seo: db.prepare('INSERT INTO components_shared_seos (id, meta_title, meta_description) VALUES (?, ?, ?)'),
    component: db.prepare(
      'INSERT INTO articles_components (entity_id, component_id, component_type, field, "order") VALUES (?, ?, ?, ?, ?)',
    ),
    category_link: db.prepare('INSERT INTO articles_category_links (article_id, category_id, article_order) VALUES (?, ?, ?)'),
    author_link: db.prepare('INSERT INTO articles_author_links (article_id, writer_id, article_order) VALUES (?, ?, ?)'),
    tag_link: db.prepare('INSERT INTO articles_tags_links (article_id, tag_id, tag_order, article_order) VALUES (?, ?, ?, ?)'),
  };
  // Inverse-side order columns count the position of the article in the target's list (1..N).
  const inverseOrder = { category: new Map(), writer: new Map(), tag: new Map() };
  const next = (map, key) => {
    const value = (map.get(key) ?? 0) + 1;
    map.set(key, value);
    return value;
  };

  db.transaction(() => {
    for (let id = 1; id <= COUNTS.categories; id += 1) sql.category.run(id, `Category ${id}`, stamp(0), stamp(0));
    for (let id = 1; id <= COUNTS.tags; id += 1) sql.tag.run(id, `tag-${WORDS[id]}`, stamp(0), stamp(0));
    for (let id = 1; id <= COUNTS.writers; id += 1) {
      sql.writer.run(id, `Writer ${id}`, `writer${id}@example.com`, stamp(0), stamp(0));
    }
    for (let id = 1; id <= COUNTS.articles; id += 1) {
      const created = stamp(id);
      const draft = id % 3 === 0;
      const title = `Article ${id}: ${sentence(rand, 5)}`;
      sql.article.run(
        id,
        title,
        `article-${id}`,
        `## ${title}\n\n${paragraph(rand, 4)}\n\n${paragraph(rand, 4)}`,
        paragraph(rand, 2),
        rand() < 0.1 ? 1 : 0,
        Math.floor(rand() * 100000),
        Math.round(rand() * 500) / 100,
        new Date(created).toISOString().slice(0, 10),
        STATUSES[id % STATUSES.length],
        JSON.stringify({ readingMinutes: 1 + (id % 12), source: 'bench' }),
        created,
        created + 1000,
        draft ? null : created + 2000,
      );
      sql.seo.run(id, title.slice(0, 60), paragraph(rand, 1));
      sql.component.run(id, id, 'shared.seo', 'seo', 1);

      const category = 1 + (id % COUNTS.categories);
      sql.category_link.run(id, category, next(inverseOrder.category, category));
      const writer = 1 + ((id * 7) % COUNTS.writers);
      sql.author_link.run(id, writer, next(inverseOrder.writer, writer));
      for (let k = 0; k < COUNTS.tagsPerArticle; k += 1) {
        const tag = 1 + ((id + k * 7) % COUNTS.tags);
        sql.tag_link.run(id, tag, k + 1, next(inverseOrder.tag, tag));
      }
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** A seeded app folder: `{ dir, dbFile, config, token }`. */
async function seed() {
  const prepared = await prepareApp();
  insertRows(prepared.dbFile);
  return prepared;
}

/** Ids of published articles (the seed makes every third one a draft). */
function publishedIds() {
  const ids = [];
  for (let id = 1; id <= COUNTS.articles; id += 1) if (id % 3 !== 0) ids.push(id);
  return ids;
}

module.exports = { seed, appConfig, publishedIds, COUNTS };

/**
 * The example app boots on a copy of the SQLite database Strapi v4 created
 * and filled, serves its content through the entity service, and leaves
 * every table, column, index and row of Strapi's in place (schema sync only
 * adds what is missing).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Sqlite from 'better-sqlite3';
import { EXAMPLE_APP, SHARED_REFERENCE, requireReference, startApp, type TestApp } from '@tessera/testing';

const ARTICLE = 'api::article.article';
/**
 * The only rows a boot adds: users-permissions grants config/permissions.ts to the public role, and the example
 * app's `page` type (find, findOne) is new to Strapi's. Nothing is changed or removed.
 */
const GRANTED_AT_BOOT: Record<string, number> = { up_permissions: 2, up_permissions_role_links: 2 };

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

interface Snapshot {
  tables: Map<string, { columns: ColumnInfo[]; rows: number }>;
  /** Index name → its table and CREATE statement. */
  indexes: Map<string, { table: string; sql: string | null }>;
}

function snapshot(file: string): Snapshot {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Map<string, { columns: ColumnInfo[]; rows: number }>();
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>;
    for (const { name } of names) {
      const columns = db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)').all(name) as ColumnInfo[];
      const { rows } = db.prepare(`SELECT COUNT(*) AS rows FROM "${name}"`).get() as { rows: number };
      tables.set(name, { columns, rows });
    }
    const indexRows = db.prepare(`SELECT name, tbl_name AS "table", sql FROM sqlite_master WHERE type = 'index'`).all() as Array<{ name: string; table: string; sql: string | null }>;
    return { tables, indexes: new Map(indexRows.map(({ name, table, sql }) => [name, { table, sql }])) };
  } finally {
    db.close();
  }
}

/** The scalar attributes of article 1 as Strapi v4 answered them (sample 11). */
function strapiArticleOne(): Record<string, unknown> {
  const text = fs.readFileSync(path.join(SHARED_REFERENCE, 'strapi4-samples/11-rest-single.txt'), 'utf8');
  const body = JSON.parse(text.trim().split('\n').pop()!);
  const { category, tags, author, seo, cover, ...scalars } = body.data.attributes;
  return { id: body.data.id, ...scalars };
}

describe('example app on a copy of the Strapi v4 reference database [sqlite]', () => {
  let app: TestApp;
  let workDir: string;
  let original: Snapshot;
  let synced: Snapshot;

  // The original is never opened for writing: snapshot a private copy, boot on another copy of it.
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite', 'strapi4-samples/11-rest-single.txt');
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-reference-'));
    const copy = path.join(workDir, 'strapi4-blog.sqlite');
    fs.copyFileSync(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), copy);
    original = snapshot(copy);
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: copy });
  });
  after(() => {
    if (app) fs.rmSync(app.dir, { recursive: true, force: true });
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('reads the 2,000 articles and 666 drafts through the entity service', async () => {
    const entityService = app.app.entityService;
    expect(await entityService.count(ARTICLE)).to.equal(2000);
    expect(await entityService.count(ARTICLE, { filters: { publishedAt: { $null: true } } })).to.equal(666);
    expect(await entityService.count(ARTICLE, { filters: { publishedAt: { $notNull: true } } })).to.equal(1334);
    const drafts = (await entityService.findMany(ARTICLE, { filters: { publishedAt: { $null: true } }, sort: 'id', limit: 3 })) as Array<{ id: number }>;
    expect(drafts.map((article) => article.id)).to.deep.equal([3, 6, 9]);
    const all = (await entityService.findMany(ARTICLE, { fields: ['title'] })) as Array<{ id: number }>;
    expect(all).to.have.length(2000);
    expect(new Set(all.map((article) => article.id)).size).to.equal(2000);
  });

  it('filters Strapi-written links and json as Strapi v4 does: a missing row is nulls, json matches its stored text', async () => {
    const count = (filters: Record<string, unknown>) => app.app.entityService.count(ARTICLE, { filters });
    // Strapi linked every article to a category, tags and an author with an email, and gave none a seo or a cover.
    expect(await count({ category: { id: { $null: true } } })).to.equal(0);
    expect(await count({ category: { id: { $notNull: true } } })).to.equal(2000);
    expect(await count({ tags: { id: { $null: true } } })).to.equal(0);
    expect(await count({ author: { email: { $null: true } } })).to.equal(0);
    expect(await count({ seo: { id: { $null: true } } })).to.equal(2000);
    expect(await count({ seo: { metaTitle: { $notNull: true } } })).to.equal(0);
    expect(await count({ cover: { id: { $null: true } } })).to.equal(2000);
    // Strapi stored `{"index":2,"even":true}`: every second article.
    expect(await count({ meta: { $contains: '"even":true' } })).to.equal(1000);
    const live = await app.get('/api/articles?filters[seo][id][$null]=true&fields[0]=title&pagination[pageSize]=1');
    expect(live.status).to.equal(200);
    expect(live.body.meta.pagination.total).to.equal(1334);
  });

  it('reads article 1 exactly as Strapi v4 answered it', async () => {
    const article = await app.app.entityService.findOne(ARTICLE, 1);
    const expected = strapiArticleOne();
    const actual = Object.fromEntries(Object.keys(expected).map((key) => [key, article?.[key]]));
    expect(actual).to.deep.equal(expected);
  });

  it('serves the content over REST to the public role', async () => {
    const response = await app.get('/api/articles?pagination[pageSize]=1');
    expect(response.status).to.equal(200);
    expect(response.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 1, pageCount: 1334, total: 1334 });
  });

  it('keeps every table, column, index and row of the original', async () => {
    await app.stop({ keepDatabase: true });
    synced = snapshot(app.database.sqliteFile!);
    expect(original.tables.get('articles')?.rows).to.equal(2000);
    for (const [table, before] of original.tables) {
      const now = synced.tables.get(table);
      expect(now, `table ${table} is gone`).to.not.equal(undefined);
      expect(now!.rows, `rows of ${table}`).to.equal(before.rows + (GRANTED_AT_BOOT[table] ?? 0));
      // Original columns keep their definitions and order; new ones could only follow them.
      expect(now!.columns.slice(0, before.columns.length), `columns of ${table}`).to.deep.equal(before.columns);
    }
    for (const [name, index] of original.indexes) expect(synced.indexes.get(name), `index ${name}`).to.deep.equal(index);
  });

  it('adds one column (users-permissions\' password stamp) and only the published_at index to Strapi tables (new content types get new tables)', async () => {
    const addedColumns = [...original.tables].flatMap(([table, before]) =>
      synced.tables.get(table)!.columns.slice(before.columns.length).map((column) => `${table}.${column.name}`),
    );
    // The time of a user's last password change, which revokes earlier JWTs (plugins/users-permissions/src/password-change.ts).
    expect(addedColumns).to.deep.equal(['up_users.password_changed_at']);
    const addedIndexes = [...synced.indexes].filter(([name, index]) => !original.indexes.has(name) && original.tables.has(index.table)).map(([name]) => name);
    expect(addedIndexes).to.deep.equal(['articles_published_at_index']);
    expect(synced.indexes.get('articles_published_at_index')!.sql).to.match(/on [`"]articles[`"] \([`"]published_at[`"]\)/i);
    // Tables the model needs beyond Strapi's are new; none of them is one of Strapi's under another shape.
    // Tessera's own tables (the webhook outbox, say) are named `tessera_*`, a prefix Strapi never uses.
    const modelTables = new Set([...app.app.db.metadata.values()].map((entity) => entity.tableName));
    const addedTables = [...synced.tables.keys()].filter((name) => !original.tables.has(name));
    for (const table of addedTables) expect(modelTables.has(table) || /_(links|components)$/.test(table) || table.startsWith('tessera_'), table).to.equal(true);
  });

  it('boots again on the same database without changing anything', async () => {
    const again = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, database: app.database });
    try {
      expect((await again.app.db.sync()).changes).to.deep.equal([]);
      expect(await again.app.entityService.count(ARTICLE)).to.equal(2000);
    } finally {
      await again.stop();
    }
  });
});

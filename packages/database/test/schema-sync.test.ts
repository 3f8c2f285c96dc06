/**
 * Schema sync: a fresh database gets the Strapi v4 layout (compared with the
 * database Strapi itself created for the same schema files); later boots add
 * what a changed schema needs and never drop a column or a row.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Sqlite from 'better-sqlite3';
import { EXAMPLE_APP, SHARED_REFERENCE, eachDatabase, requireReference, startApp, type TestApp } from '@tessera/testing';
import type { Plugin } from '@tessera/core';
import type { TableDefinition } from '@tessera/database';
import restPlugin from '@tessera/plugin-rest';
import { columnNames, indexNames, rowCount, tableNames } from './catalog';

/** The tables the example app's schema files map to (content, components, join tables). */
const MODEL_TABLES = [
  'articles',
  'articles_author_links',
  'articles_category_links',
  'articles_components',
  'articles_tags_links',
  'categories',
  'components_shared_seos',
  'homepages',
  'homepages_featured_articles_links',
  'tags',
  'writers',
];

interface ReferenceTable {
  columns: string[];
  indexes: string[];
}

/** Columns and indexes of the model's tables in the database Strapi v4 created (read from a copy). */
function readReferenceLayout(): Map<string, ReferenceTable> {
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-ref-')), 'strapi.sqlite');
  fs.copyFileSync(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), copy);
  const db = new Sqlite(copy, { readonly: true });
  try {
    const layout = new Map<string, ReferenceTable>();
    for (const table of MODEL_TABLES) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map((row) => row.name).sort();
      const indexes = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_%'`).all(table) as Array<{ name: string }>)
        .map((row) => row.name)
        .sort();
      layout.set(table, { columns, indexes });
    }
    return layout;
  } finally {
    db.close();
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  }
}

eachDatabase('schema sync creates the Strapi v4 layout', (dialect) => {
  let app: TestApp;
  let reference: Map<string, ReferenceTable>;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    reference = readReferenceLayout();
    app = await startApp({ dialect, from: EXAMPLE_APP });
  });
  after(() => app?.stop());

  it('creates every table of the model', async () => {
    const tables = await tableNames(app.app.db.sql);
    for (const table of MODEL_TABLES) expect(tables, table).to.include(table);
  });

  it('gives every table exactly the columns Strapi v4 gives it (snake_case, join-table order columns)', async () => {
    for (const table of MODEL_TABLES) {
      expect(reference.get(table)!.columns, `reference ${table}`).to.not.be.empty;
      expect(await columnNames(app.app.db.sql, table), table).to.deep.equal(reference.get(table)!.columns);
    }
  });

  it('creates the indexes Strapi v4 creates (except foreign keys to its admin users) plus the published_at index', async () => {
    for (const table of MODEL_TABLES) {
      const expected = reference.get(table)!.indexes.filter((name) => !/_(created|updated)_by_id_fk$/.test(name));
      const actual = await indexNames(app.app.db.sql, table);
      for (const name of expected) expect(actual, `${table} lacks ${name}`).to.include(name);
    }
    expect(await indexNames(app.app.db.sql, 'articles')).to.include('articles_published_at_index');
  });

  it('changes nothing when the same schema is synced again', async () => {
    const report = await app.app.db.sync();
    expect(report).to.deep.equal({ changes: [], warnings: [], summary: 'up to date' });
  });
});

/** Runs `work` with the log level at info, collecting what the logger prints. */
async function captureInfoLogs<T>(lines: string[], work: () => Promise<T>): Promise<T> {
  const level = process.env.TESSERA_LOG_LEVEL;
  const print = console.log;
  process.env.TESSERA_LOG_LEVEL = 'info';
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    return await work();
  } finally {
    console.log = print;
    if (level === undefined) delete process.env.TESSERA_LOG_LEVEL;
    else process.env.TESSERA_LOG_LEVEL = level;
  }
}

const BOOK = 'src/api/book/content-types/book/schema.json';

function bookSchema(attributes: Record<string, unknown>): object {
  return {
    kind: 'collectionType',
    collectionName: 'books',
    info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
    options: { draftAndPublish: false },
    attributes,
  };
}

eachDatabase('schema sync extends tables without losing rows', (dialect) => {
  const stopped: TestApp[] = [];
  let current: TestApp | undefined;
  after(async () => {
    await current?.stop();
    for (const app of stopped) fs.rmSync(app.dir, { recursive: true, force: true });
  });

  async function restart(attributes: Record<string, unknown>, logs: string[] = []): Promise<TestApp> {
    const previous = current!;
    await previous.stop({ keepDatabase: true });
    stopped.push(previous);
    current = await captureInfoLogs(logs, () => startApp({ dialect, files: { [BOOK]: bookSchema(attributes) }, database: previous.database }));
    return current;
  }

  it('adds a column for a new attribute and keeps every existing row', async () => {
    current = await startApp({ dialect, files: { [BOOK]: bookSchema({ title: { type: 'string' }, note: { type: 'text' } }) } });
    for (const title of ['Dune', 'Emma', 'Ulysses']) await current.app.entityService.create('api::book.book', { data: { title, note: `about ${title}` } });
    expect(await columnNames(current.app.db.sql, 'books')).to.not.include('pages');

    const logs: string[] = [];
    const app = await restart({ title: { type: 'string' }, note: { type: 'text' }, pages: { type: 'integer' }, isbn: { type: 'string', unique: true } }, logs);
    // One concise line says what the sync changed.
    expect(logs.filter((line) => line.includes('schema:'))).to.deep.equal(['[tessera] schema: created 0 tables, 0 indexes, 2 columns']);
    expect(logs.some((line) => / booted in \d+ ms$/.test(line))).to.equal(true);
    const columns = await columnNames(app.app.db.sql, 'books');
    expect(columns).to.include.members(['title', 'note', 'pages', 'isbn']);
    const books = (await app.app.entityService.findMany('api::book.book', { sort: 'title' })) as Array<Record<string, any>>;
    expect(books.map((book) => [book.title, book.note, book.pages, book.isbn])).to.deep.equal([
      ['Dune', 'about Dune', null, null],
      ['Emma', 'about Emma', null, null],
      ['Ulysses', 'about Ulysses', null, null],
    ]);
    const token = await app.fullAccessToken();
    const updated = await app.put(`/api/books/${books[0].id}`, { data: { pages: 412, isbn: '978-0441013593' } }, { token });
    expect(updated.status).to.equal(200);
    expect(updated.body.data.attributes).to.include({ title: 'Dune', pages: 412, isbn: '978-0441013593' });
    // The new unique attribute is enforced even though its index was not created on the existing table.
    const duplicate = await app.put(`/api/books/${books[1].id}`, { data: { isbn: '978-0441013593' } }, { token });
    expect(duplicate.status).to.equal(400);
    expect(duplicate.body.error.details.errors).to.deep.equal([{ path: ['isbn'], message: 'This attribute must be unique', name: 'ValidationError' }]);
  });

  it('keeps the column and its data when an attribute is removed from the schema', async () => {
    const app = await restart({ title: { type: 'string' }, pages: { type: 'integer' }, isbn: { type: 'string', unique: true } });
    const connection = app.app.db.sql;
    expect(await columnNames(connection, 'books')).to.include('note');
    expect(await rowCount(connection, 'books')).to.equal(3);
    const notes = await connection.raw(`SELECT note FROM books ORDER BY title`);
    expect(notes.map((row) => row.note)).to.deep.equal(['about Dune', 'about Emma', 'about Ulysses']);
    // The API no longer knows the removed attribute.
    const listed = await app.get('/api/books?sort=title', { token: await app.fullAccessToken() });
    expect(listed.status).to.equal(200);
    expect(Object.keys(listed.body.data[0].attributes).sort()).to.deep.equal(['createdAt', 'isbn', 'pages', 'title', 'updatedAt']);
  });

  it('adds a new content type table next to the existing ones', async () => {
    const app = await restart({ title: { type: 'string' }, pages: { type: 'integer' } });
    expect(await tableNames(app.app.db.sql)).to.include('books');
    const previous = current!;
    await previous.stop({ keepDatabase: true });
    stopped.push(previous);
    current = await startApp({
      dialect,
      database: previous.database,
      files: {
        [BOOK]: bookSchema({ title: { type: 'string' }, pages: { type: 'integer' } }),
        'src/api/shelf/content-types/shelf/schema.json': {
          kind: 'collectionType',
          collectionName: 'shelves',
          info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
          options: { draftAndPublish: true },
          attributes: { label: { type: 'string' }, books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book' } },
        },
      },
    });
    const connection = current.app.db.sql;
    expect(await tableNames(connection)).to.include.members(['books', 'shelves', 'shelves_books_links']);
    expect(await columnNames(connection, 'shelves')).to.deep.equal(
      ['created_at', 'created_by_id', 'id', 'label', 'published_at', 'updated_at', 'updated_by_id'].sort(),
    );
    expect(await columnNames(connection, 'shelves_books_links')).to.deep.equal(['book_id', 'book_order', 'id', 'shelf_id']);
    expect(await rowCount(connection, 'books')).to.equal(3);
  });
});

eachDatabase('schema sync: tables plugins declare', (dialect) => {
  /** A plugin owning one table; `extra` adds a column on a later boot. */
  const owner = (extra: boolean): Plugin => ({
    name: 'ledger',
    register({ app }) {
      const columns: TableDefinition['columns'] = [
        { name: 'name', type: 'string', length: 100, primaryKey: true },
        { name: 'total', type: 'biginteger', notNull: true },
      ];
      if (extra) columns.push({ name: 'note', type: 'text' });
      app.tables.add('ledger_totals', { name: 'ledger_totals', columns, indexes: [{ name: 'ledger_totals_total_index', columns: ['total'] }] });
    },
  });
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  after(async () => {
    await second?.stop();
    if (first) fs.rmSync(first.dir, { recursive: true, force: true });
  });

  it('creates a declared table with the content tables, and adds a column declared later, keeping its rows', async () => {
    first = await startApp({ dialect, files: { [BOOK]: bookSchema({ title: { type: 'string' } }) }, plugins: [restPlugin, owner(false)] });
    const connection = first.app.db.sql;
    expect(await columnNames(connection, 'ledger_totals')).to.deep.equal(['name', 'total']);
    expect(await indexNames(connection, 'ledger_totals')).to.include('ledger_totals_total_index');
    await connection.run(connection.knex('ledger_totals').insert({ name: 'a', total: 7 }));
    await first.stop({ keepDatabase: true });

    second = await startApp({ dialect, files: { [BOOK]: bookSchema({ title: { type: 'string' } }) }, plugins: [restPlugin, owner(true)], database: first.database });
    const again = second.app.db.sql;
    expect(await columnNames(again, 'ledger_totals')).to.deep.equal(['name', 'note', 'total']);
    expect((await again.raw('SELECT name, total, note FROM ledger_totals')).map((row) => [row.name, Number(row.total), row.note])).to.deep.equal([['a', 7, null]]);
  });
});

/**
 * The boot's search advice (schema/search-advice.ts): an `api::` collection type with text attributes, no search
 * option and at least 50,000 rows is named (open-database.ts logs a warning for each); a smaller one, or one whose
 * text is search-indexed, is not. Rows are inserted with one SQL statement per type (a cross join of digits), on each
 * database.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const type = (singular: string, plural: string, search: boolean) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: false },
  ...(search ? { pluginOptions: { tessera: { search: ['title'] } } } : {}),
  attributes: { title: { type: 'string' }, views: { type: 'integer' } },
});

const files = {
  'src/api/note/content-types/note/schema.json': type('note', 'notes', false),
  'src/api/memo/content-types/memo/schema.json': type('memo', 'memos', false),
  'src/api/page/content-types/page/schema.json': type('page', 'pages', true),
};

const DIGITS = '(select 0 as i union all select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9)';

eachDatabase('search advice at boot: large types searched by a scan', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files, noListen: true });
  });
  after(() => app?.stop());

  async function fill(table: string, rows: number): Promise<void> {
    const n = 'a.i + 10 * b.i + 100 * c.i + 1000 * d.i + 10000 * e.i';
    await app.app.db.sql.raw(`insert into ${table} (views) select ${n} from ${DIGITS} a, ${DIGITS} b, ${DIGITS} c, ${DIGITS} d, ${DIGITS} e where ${n} < ${rows}`);
  }

  it('names the types of 50,000 rows or more without a search option, and only those', async () => {
    expect(await app.app.db.largeUnsearchedTypes()).to.deep.equal([]);
    await fill('notes', 50_000);
    await fill('memos', 49_999);
    await fill('pages', 50_000);
    expect(await app.app.db.largeUnsearchedTypes()).to.deep.equal(['api::note.note']);
  });
});

import fs from 'node:fs';
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';

/**
 * SQLite's search table is derived data, made by the schema sync: a boot keeps one that is built as the code builds
 * it, and rebuilds one made by an earlier build (here: the copy without its end padding and with no terms table,
 * as built before 2-character runs were looked up), so that 2-character searches find text at its very end.
 */
const FILES = {
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string', pluginOptions: { tessera: { search: true } } } },
  },
};

describe('SQLite search table: kept when current, rebuilt when an earlier build made it', () => {
  const stopped: TestApp[] = [];
  let current: TestApp | undefined;
  after(async () => {
    await current?.stop();
    for (const app of stopped) fs.rmSync(app.dir, { recursive: true, force: true });
  });

  async function restart(): Promise<TestApp> {
    const previous = current!;
    await previous.stop({ keepDatabase: true });
    stopped.push(previous);
    current = await startApp({ dialect: 'sqlite', files: FILES, database: previous.database });
    return current;
  }

  const titles = async (app: TestApp, value: string) => {
    const rows = await app.app.entityService.findMany('api::note.note', { filters: { title: { $containsi: value } }, sort: 'id' });
    return (Array.isArray(rows) ? rows : []).map((row) => row.title);
  };
  /** A row only the search table holds: it survives a boot that keeps the table and goes with a rebuild. */
  const marker = async (app: TestApp) => (await app.app.db.sql.raw(`SELECT count(*) AS n FROM notes_search WHERE rowid = 424242`))[0].n;

  it('keeps a current table across a boot', async () => {
    current = await startApp({ dialect: 'sqlite', files: FILES });
    for (const title of ['Pass the salt', 'Tokyo', 'Kyoto by night']) await current.app.entityService.create('api::note.note', { data: { title } });
    await current.app.db.sql.raw(`INSERT INTO notes_search (rowid, title) VALUES (424242, 'marker')`);
    const app = await restart();
    expect(await marker(app)).to.equal(1);
    expect(await titles(app, 'YO')).to.deep.equal(['Tokyo', 'Kyoto by night']);
  });

  it('rebuilds a table an earlier build made, and then finds two characters at the end of a text', async () => {
    const connection = current!.app.db.sql;
    // The earlier build's table: the copy as it was (no padding), its triggers, and no terms table.
    for (const suffix of ['ai', 'ad', 'au']) await connection.raw(`DROP TRIGGER notes_search_${suffix}`);
    await connection.raw(`DROP TABLE notes_search_terms`);
    await connection.raw(`DROP TABLE notes_search_counts`);
    await connection.raw(`DELETE FROM notes_search WHERE rowid <> 424242`);
    await connection.raw(`INSERT INTO notes_search (rowid, title) SELECT id, title FROM notes`);
    await connection.raw(`CREATE TRIGGER notes_search_ai AFTER INSERT ON notes BEGIN INSERT INTO notes_search (rowid, title) VALUES (new.id, new.title); END`);

    const app = await restart();
    expect(await marker(app)).to.equal(0);
    const [trigger] = await app.app.db.sql.raw(`SELECT sql FROM sqlite_master WHERE name = 'notes_search_ai'`);
    expect(String(trigger.sql)).to.include('char(1, 1)');
    const vocabularies = await app.app.db.sql.raw(`SELECT name FROM sqlite_master WHERE name IN ('notes_search_terms', 'notes_search_counts') ORDER BY name`);
    expect(vocabularies.map((row) => row.name)).to.deep.equal(['notes_search_counts', 'notes_search_terms']);
    expect(await titles(app, 'yo')).to.deep.equal(['Tokyo', 'Kyoto by night']);
    expect(await titles(app, 'LT')).to.deep.equal(['Pass the salt']);
    await app.app.entityService.create('api::note.note', { data: { title: 'Bolt' } });
    expect(await titles(app, 'lt')).to.deep.equal(['Pass the salt', 'Bolt']);
  });

  it('looks a rare run of two characters up through the terms table; a common one, and one character, scans', async () => {
    const app = current!;
    for (let n = 1; n <= 40; n++) await app.app.entityService.create('api::note.note', { data: { title: `Note ${n}` } });
    const sql: string[] = [];
    const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
    try {
      // `to`: 2 places among 44 rows; `no`: in 41 of them; `b`: one character.
      expect(await titles(app, 'to')).to.deep.equal(['Tokyo', 'Kyoto by night']);
      expect(await titles(app, 'NO')).to.deep.equal(['Note 1', 'Note 2', 'Note 3', 'Note 4', 'Note 5'].concat(Array.from({ length: 35 }, (_, n) => `Note ${n + 6}`)));
      expect(await titles(app, 'b')).to.deep.equal(['Kyoto by night', 'Bolt']);
    } finally {
      unsubscribe();
    }
    const reads = sql.filter((statement) => statement.includes('from `notes`'));
    expect(reads).to.have.length(3);
    expect(reads[0]).to.include('`notes_search_terms`');
    expect(reads[1]).to.not.include('notes_search');
    expect(reads[2]).to.not.include('notes_search');
    // Each run's totals were read once, from the counts table.
    expect(sql.filter((statement) => statement.includes('`notes_search_counts`'))).to.have.length(2);
  });
});

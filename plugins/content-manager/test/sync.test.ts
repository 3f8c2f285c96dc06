/**
 * View configurations kept in line with the model at boot, as Strapi 4.26.2 keeps them: stored configurations
 * made stale (recordings/sync-scenario.js) come out of a restart as the peer's did (strapi-4.26.2-sync.json); a
 * real schema change adds and removes fields; and a database Strapi made (fixtures/strapi-4.26.2-cm-store.sql, the
 * content-manager rows of shared/reference/strapi4-blog.sqlite) is read as it is: answered, and not rewritten.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { PEER_APP, registerAdmin, startPeerApp } from './fixture';
import synced from './recordings/strapi-4.26.2-sync.json';

const STORE = 'strapi::core-store';
const KEY = (suffix: string) => `plugin_content_manager_configuration_${suffix}`;
// Plain data in a .js module (the recorder reads it too).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const STALE = require('./recordings/sync-scenario.js') as Record<string, object>;
const STRAPI_SYNCED = synced.synced as Record<string, object | null>;

async function storedValue(app: TestApp, suffix: string): Promise<unknown> {
  const row = await app.app.db.query(STORE).findOne({ where: { key: KEY(suffix) }, select: ['value'] });
  return row ? JSON.parse(String(row.value)) : null;
}

async function store(app: TestApp, suffix: string, value: object): Promise<void> {
  const repository = app.app.db.query(STORE);
  const existing = await repository.findOne({ where: { key: KEY(suffix) }, select: ['id'] });
  const data = { value: JSON.stringify(value), type: 'object' };
  if (existing) await repository.update({ where: { id: existing.id }, data });
  else await repository.create({ data: { key: KEY(suffix), ...data } });
}

eachDatabase('content-manager configurations synced at boot (Strapi 4.26.2)', (dialect) => {
  let app: TestApp | undefined;
  afterEach(() => app?.stop());

  it('brings stale stored configurations in line as Strapi did, drops a removed type, keeps a Strapi-only type', async () => {
    const first = await startPeerApp(dialect);
    for (const [suffix, value] of Object.entries(STALE)) await store(first, suffix, value);
    const releases = { settings: {}, metadatas: {}, layouts: {}, uid: 'plugin::content-releases.release' };
    await store(first, 'content_types::plugin::content-releases.release', releases);
    await first.stop({ keepDatabase: true });
    app = await startPeerApp(dialect, { database: first.database });
    for (const [suffix, expected] of Object.entries(STRAPI_SYNCED)) expect(await storedValue(app, suffix), suffix).to.deep.equal(expected);
    expect(await storedValue(app, 'content_types::plugin::content-releases.release')).to.deep.equal(releases);
  });

  it('adds a field added to the schema and removes one removed from it, keeping what the panel set', async () => {
    const note = JSON.parse(fs.readFileSync(path.join(PEER_APP, 'src/api/note/content-types/note/schema.json'), 'utf8'));
    const { score, ...withoutScore } = note.attributes;
    const first = await startPeerApp(dialect, { files: { 'src/api/note/content-types/note/schema.json': { ...note, attributes: withoutScore } } });
    const generated = (await storedValue(first, 'content_types::api::note.note')) as { layouts: { list: string[] } };
    expect(generated.layouts.list).to.deep.equal(['id', 'title', 'secret', 'createdAt']);
    const labelled = { ...generated, settings: { bulkable: false, filterable: true, searchable: true, pageSize: 20, mainField: 'secret', defaultSortBy: 'secret', defaultSortOrder: 'DESC' } };
    await store(first, 'content_types::api::note.note', labelled);
    await first.stop({ keepDatabase: true });

    const { secret, ...withoutSecret } = note.attributes;
    expect([secret, score]).to.deep.equal([{ type: 'string' }, { type: 'integer' }]);
    app = await startPeerApp(dialect, { database: first.database, files: { 'src/api/note/content-types/note/schema.json': { ...note, attributes: withoutSecret } } });
    const token = await registerAdmin(app);
    const { body } = await app.get('/content-manager/content-types/api::note.note/configuration', { token });
    const { contentType } = body.data;
    expect(contentType.settings).to.deep.equal({ bulkable: false, filterable: true, searchable: true, pageSize: 20, mainField: 'title', defaultSortBy: 'title', defaultSortOrder: 'DESC' });
    expect(Object.keys(contentType.metadatas)).to.deep.equal(['id', 'title', 'score', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
    expect(contentType.layouts).to.deep.equal({ list: ['id', 'title', 'createdAt', 'score'], edit: [[{ name: 'title', size: 6 }, { name: 'score', size: 4 }]] });
  });
});

describe('content-manager configurations of a database Strapi 4.26.2 made [sqlite]', () => {
  let dir: string;
  let app: TestApp;
  let file: string;
  const rows = () => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare("select id, key, value, type from strapi_core_store_settings where key like 'plugin_content_manager%' order by id").all() as Array<{ id: number; key: string; value: string; type: string }>;
    } finally {
      db.close();
    }
  };
  let strapiRows: ReturnType<typeof rows>;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cm-strapi-'));
    file = path.join(dir, 'strapi.db');
    const db = new Database(file);
    db.exec(fs.readFileSync(path.join(__dirname, 'fixtures', 'strapi-4.26.2-cm-store.sql'), 'utf8'));
    db.close();
    strapiRows = rows();
    app = await startPeerApp('sqlite', { sqliteFile: file });
    // The harness copies the file into the app folder: that copy is the one Tessera booted on.
    file = app.database.sqliteFile ?? file;
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Strapi made the rows on its first boot, where a component's `id` is generated searchable and sortable; its next
   * boot's sync turns both off (a component's id is not sortable: recorded in strapi-4.26.2-sync.json). Tessera's
   * boot is that next boot.
   */
  const SEO = KEY('components::shared.seo');
  const resynced = (value: string) => {
    const parsed = JSON.parse(value);
    return JSON.stringify({ ...parsed, metadatas: { ...parsed.metadatas, id: { edit: {}, list: { label: 'id', searchable: false, sortable: false } } } });
  };

  it('leaves every configuration Strapi stored as it is (the peer model adds note and page, which get theirs)', async () => {
    const now = rows();
    for (const row of strapiRows) {
      const expected = row.key === SEO ? { ...row, value: resynced(row.value) } : row;
      expect(now.find((candidate) => candidate.id === row.id), row.key).to.deep.equal(expected);
    }
    expect(now.filter((row) => !strapiRows.some((strapiRow) => strapiRow.id === row.id)).map((row) => row.key)).to.deep.equal([
      KEY('content_types::api::note.note'),
      KEY('content_types::api::page.page'),
    ]);
  });

  it('answers the stored configuration, with a relation list metadata naming its main field', async () => {
    const token = await registerAdmin(app);
    const stored = JSON.parse(strapiRows.find((row) => row.key === KEY('content_types::api::article.article'))!.value);
    const { body } = await app.get('/content-manager/content-types/api::article.article/configuration', { token });
    const relation = (name: string) => ({ ...stored.metadatas[name], list: { ...stored.metadatas[name].list, mainField: stored.metadatas[name].edit.mainField } });
    const metadatas = { ...stored.metadatas, category: relation('category'), tags: relation('tags'), author: relation('author'), createdBy: relation('createdBy'), updatedBy: relation('updatedBy') };
    const seo = JSON.parse(resynced(strapiRows.find((row) => row.key === SEO)!.value));
    expect(body.data).to.deep.equal({ contentType: { ...stored, metadatas }, components: { 'shared.seo': { uid: 'shared.seo', category: 'shared', ...seo } } });
  });
});

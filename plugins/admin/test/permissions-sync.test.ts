/**
 * Admin permissions synced at boot as Strapi 4.26.2 syncs them, on the
 * peer's own app (fixtures/peer-model): a fresh database gets Strapi's
 * Editor and Author permissions (Author's with `admin::is-creator`) and the
 * Super Admin every registered action, locales following the locales there
 * are (recorded/strapi-4.26.2-permissions.json); restarted on the same
 * database with an attribute and a content type removed, their permissions
 * are trimmed and removed, and permissions of unregistered actions go.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { PERMISSION_UID, ROLE_UID } from '@tessera/plugin-admin';
import { addLocales, peerModelFiles } from './fixture';
import recorded from './recorded/strapi-4.26.2-permissions.json';

type Row = { action: string; subject: string | null; properties: Record<string, unknown>; conditions: string[] };

const config = { admin: { auth: { secret: 'admin-sync-secret' } } };
const key = (row: { action: string; subject: string | null }) => `${row.action} ${row.subject}`;
const sorted = (rows: Row[]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));

async function permissionsOf(app: TestApp, code: string): Promise<Row[]> {
  const role = (await app.app.db.query(ROLE_UID).findOne({ where: { code }, select: ['id'] }))!.id;
  const rows = await app.app.db.query(PERMISSION_UID).findMany({ where: { role: { id: role } }, orderBy: [{ id: 'asc' }] });
  return rows.map(({ action, actionParameters, subject, properties, conditions }) => ({ action, actionParameters, subject, properties, conditions }) as Row);
}

/** The peer's model with note's `secret` attribute and the whole tag type gone (and article's relation to tags). */
function trimmedModel(): Record<string, string | object> {
  const files = peerModelFiles();
  const note = JSON.parse(files['src/api/note/content-types/note/schema.json'] as string);
  delete note.attributes.secret;
  files['src/api/note/content-types/note/schema.json'] = note;
  delete files['src/api/tag/content-types/tag/schema.json'];
  const article = JSON.parse(files['src/api/article/content-types/article/schema.json'] as string);
  delete article.attributes.tags;
  files['src/api/article/content-types/article/schema.json'] = article;
  return files;
}

eachDatabase('admin permissions synced at boot (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files: peerModelFiles(), config });
  });
  after(() => app?.stop());

  it("gives a fresh database Strapi's default Editor and Author permissions", async () => {
    expect(await permissionsOf(app, 'strapi-author')).to.deep.equal(recorded.author);
    const editor = await permissionsOf(app, 'strapi-editor');
    // Strapi's Editor: the Author's without the condition, plus publish (where a type has drafts; i18n's page has none,
    // its permissions lacking the locales publish needs), and the media library's without conditions.
    const expected = recorded.author.map((row) => ({ ...row, conditions: [] }));
    expected.splice(expected.findIndex((row) => row.action === 'plugin::upload.read'), 0, { action: 'plugin::content-manager.explorer.publish', actionParameters: {}, subject: 'api::article.article', properties: {}, conditions: [] });
    expect(editor).to.deep.equal(expected);
  });

  it('gives the Super Admin every registered action, every locale as locales are added', async () => {
    await addLocales(app);
    const expected = recorded.superAdmin.filter((row) => !row.action.startsWith('admin::transfer.'));
    expect(sorted(await permissionsOf(app, 'strapi-super-admin'))).to.deep.equal(sorted(expected as Row[]));
  });

  it('removes the permissions of a removed type and trims removed fields at the next boot, and those of unregistered actions', async () => {
    const custom = (await app.app.db.query(ROLE_UID).create({ data: { name: 'Custom', code: 'custom', description: '' } })).id;
    const add = (action: string, subject: string | null, properties: object) =>
      app.app.db.query(PERMISSION_UID).create({ data: { action, actionParameters: {}, subject, properties, conditions: [], role: custom } });
    await add('plugin::content-manager.explorer.read', 'api::note.note', { fields: ['title', 'secret'] });
    await add('plugin::content-manager.explorer.update', 'api::tag.tag', { fields: ['name'] });
    await add('plugin::gone.read', null, {});
    await app.stop({ keepDatabase: true });
    app = await startApp({ dialect, files: trimmedModel(), config, database: app.database });
    expect(await permissionsOf(app, 'custom')).to.deep.equal([{ action: 'plugin::content-manager.explorer.read', actionParameters: {}, subject: 'api::note.note', properties: { fields: ['title'] }, conditions: [] }]);
    const author = await permissionsOf(app, 'strapi-author');
    expect(author.filter((row) => row.subject === 'api::tag.tag')).to.deep.equal([]);
    expect(author.find((row) => row.action === 'plugin::content-manager.explorer.read' && row.subject === 'api::note.note')!.properties).to.deep.equal({ fields: ['title', 'score'] });
    const article = author.find((row) => row.action === 'plugin::content-manager.explorer.read' && row.subject === 'api::article.article')!;
    expect((article.properties.fields as string[]).includes('tags')).to.equal(false);
    const superAdmin = await permissionsOf(app, 'strapi-super-admin');
    expect(superAdmin.filter((row) => row.subject === 'api::tag.tag')).to.deep.equal([]);
    expect(superAdmin.find((row) => row.action === 'plugin::content-manager.explorer.create' && row.subject === 'api::note.note')!.properties).to.deep.equal({ fields: ['title', 'score'] });
  });
});

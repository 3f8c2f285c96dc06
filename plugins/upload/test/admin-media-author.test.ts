/**
 * Upload's RBAC in the media library, as Strapi 4.26.2 applies it to its
 * default Author (data/strapi-4.26.2-admin-media-author.json): with the
 * Author's upload permissions (read and assets.update under `admin::is-creator`)
 * an Author lists, reads, edits and deletes only the files it uploaded, makes
 * folders, and is refused the settings (the role's defaults on a fresh database are Strapi's); one deliberate difference — Strapi's
 * bulk delete and move check only the route's action, Tessera the condition
 * too. Then what each write left in the database: the admin as
 * `created_by_id`/`updated_by_id` of files and folders.
 */
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { eachDatabase } from '@tessera/testing';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { FILE_UID } from '@tessera/database';
import { FOLDER_UID } from '../src/contract';
import recording from './data/strapi-4.26.2-admin-media-author.json';
import media from './data/strapi-4.26.2-admin-media-library.json';
import { normalise, recordedImages, send, startMediaApp, type Exchange, type MediaApp } from './admin-fixture';

interface AuthorExchange extends Exchange {
  as: 'author' | 'super';
  tessera?: { status: number; answer: unknown };
}

/** The recording's ids are `<id>`: its answers are compared with every id so written. */
function withoutIds(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutIds(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withoutIds(item, name)]));
  return key === 'id' && typeof value === 'number' ? '<id>' : value;
}

eachDatabase('media library as an Author (Strapi 4.26.2 answers)', (dialect) => {
  let app: MediaApp;
  let author: MediaApp;
  let images: Record<string, Buffer>;
  const ids: Record<string, number> = {};
  before(async () => {
    app = await startMediaApp(dialect, media.admin);
    images = await recordedImages();
    const db = app.app.app.db;
    const role = (await db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
    // A fresh database's Author role holds Strapi's default upload permissions, as the peer's did.
    const seeded = await db.query(PERMISSION_UID).findMany({
      where: { role: { id: role }, action: { $startsWith: 'plugin::upload.' } },
      select: ['action', 'actionParameters', 'subject', 'properties', 'conditions'],
    });
    const byAction = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.action).localeCompare(String(b.action));
    expect(seeded.map(({ id: _id, ...permission }) => permission).sort(byAction)).to.deep.equal([...recording.authorUploadPermissions].sort(byAction));
    const { email, password, firstname, lastname } = recording.author;
    ids.author = (await db.query(USER_UID).create({ data: { email, firstname, lastname, password: await bcrypt.hash(password, 10), isActive: true, blocked: false, roles: [role] } })).id;
    const login = await app.app.post('/admin/login', { email, password });
    author = { ...app, token: login.body.data.token };
  });
  after(() => app?.app.stop());

  for (const exchange of recording.exchanges as AuthorExchange[]) {
    it(`${exchange.as}: ${exchange.method} ${exchange.path}: ${exchange.title}`, async () => {
      const resolve = (text: string) => text.replace('{mine}', String(ids.mine)).replace('{theirs}', String(ids.theirs));
      const body = exchange.body && Array.isArray((exchange.body as { fileIds?: string[] }).fileIds)
        ? { fileIds: (exchange.body as { fileIds: string[] }).fileIds.map((id) => Number(resolve(id))) }
        : exchange.body;
      const sent = await send(exchange.as === 'author' ? author : app, { ...exchange, path: resolve(exchange.path), body }, images);
      if (exchange.title === 'the Author uploads') ids.mine = (sent.body as Array<{ id: number }>)[0].id;
      if (exchange.title === 'the Super Admin uploads') ids.theirs = (sent.body as Array<{ id: number }>)[0].id;
      const expected = exchange.tessera ?? exchange;
      if (expected.answer === '<not compared>') expect(sent.status).to.equal(expected.status);
      else expect([sent.status, withoutIds(normalise(sent.body))]).to.deep.equal([expected.status, expected.answer]);
    });
  }

  it("kept the other admin's file the Author could not bulk-delete, and recorded who wrote what", async () => {
    const db = app.app.app.db;
    const theirs = await db.query(FILE_UID).findOne({ where: { id: ids.theirs }, select: ['id', 'createdBy', 'updatedBy'] });
    expect(theirs).to.deep.equal({ id: ids.theirs, createdBy: 1, updatedBy: 1 });
    expect(await db.query(FILE_UID).count({ where: { id: ids.mine } })).to.equal(0);
    const folder = await db.query(FOLDER_UID).findOne({ where: { name: 'Ann' }, select: ['createdBy', 'updatedBy', 'pathId', 'path'] });
    expect({ ...folder, id: undefined }).to.deep.equal({ id: undefined, createdBy: ids.author, updatedBy: ids.author, pathId: 1, path: '/1' });
  });
});

/**
 * What the media library's admin routes leave in Strapi's layout and what
 * they refuse, beyond the recorded exchanges: moving a folder (renaming its
 * parent, or bulk-move) rewrites the paths of every folder and file below
 * it; a refused move changes nothing; bad input of every route is a 4xx in
 * the admin error envelope, never a 500; a page of files and the folder list
 * take the same statements whatever they hold (no query per file or folder).
 */
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { FILE_UID } from '@tessera/database';
import { FOLDER_UID } from '../src/contract';
import { recordedImages, send, startMediaApp, type MediaApp } from './admin-fixture';

const ADMIN = { email: 'effects@example.com', password: 'Effects123', firstname: 'Eff', lastname: 'Ects' };

eachDatabase('media library admin routes: layout, refusals, fixed queries', (dialect) => {
  let media: MediaApp;
  let images: Record<string, Buffer>;
  const ids: Record<string, number> = {};
  before(async () => {
    media = await startMediaApp(dialect, ADMIN);
    images = await recordedImages();
  });
  after(() => media?.app.stop());

  const call = (method: string, path: string, body?: unknown) => media.app.request(method, path, { body, token: media.token });
  const folder = async (name: string, parent: number | null) => (await call('POST', '/upload/folders', { name, parent })).body.data.id as number;
  const upload = async (name: string, folderId: number | null) => {
    const fileInfo = JSON.stringify({ name, folder: folderId });
    const sent = await send(media, { title: name, method: 'POST', path: '/upload', form: { files: [{ image: 'c', name }], fileInfo: [fileInfo] }, status: 200, answer: null }, images);
    return (sent.body as Array<{ id: number }>)[0].id;
  };
  const paths = async () => {
    const folders = await media.app.app.db.query(FOLDER_UID).findMany({ select: ['name', 'path'], orderBy: [{ id: 'asc' }] });
    const files = await media.app.app.db.query(FILE_UID).findMany({ select: ['name', 'folderPath'], orderBy: [{ id: 'asc' }] });
    return { folders: Object.fromEntries(folders.map((row) => [row.name, row.path])), files: Object.fromEntries(files.map((row) => [row.name, row.folderPath])) };
  };

  it('moving a folder rewrites the paths below it: by a new parent (PUT) and by bulk-move', async () => {
    ids.a = await folder('A', null);
    ids.b = await folder('B', ids.a);
    ids.c = await folder('C', ids.b);
    ids.d = await folder('D', null);
    ids.deep = await upload('deep.png', ids.c);
    ids.top = await upload('top.png', null);
    expect(await paths()).to.deep.equal({ folders: { A: '/1', B: '/1/2', C: '/1/2/3', D: '/4' }, files: { 'deep.png': '/1/2/3', 'top.png': '/' } });
    expect((await call('PUT', `/upload/folders/${ids.a}`, { parent: ids.d })).status).to.equal(200);
    expect(await paths()).to.deep.equal({ folders: { A: '/4/1', B: '/4/1/2', C: '/4/1/2/3', D: '/4' }, files: { 'deep.png': '/4/1/2/3', 'top.png': '/' } });
    expect((await call('POST', '/upload/actions/bulk-move', { destinationFolderId: null, folderIds: [ids.b], fileIds: [ids.top] })).status).to.equal(200);
    expect(await paths()).to.deep.equal({ folders: { A: '/4/1', B: '/2', C: '/2/3', D: '/4' }, files: { 'deep.png': '/2/3', 'top.png': '/' } });
    const structure = await call('GET', '/upload/folder-structure');
    expect(structure.body.data).to.deep.equal([
      { id: ids.b, name: 'B', children: [{ id: ids.c, name: 'C', children: [] }] },
      { id: ids.d, name: 'D', children: [{ id: ids.a, name: 'A', children: [] }] },
    ]);
  });

  it('a refused move changes nothing: into itself, onto a name taken there', async () => {
    const before = await paths();
    const inside = await call('POST', '/upload/actions/bulk-move', { destinationFolderId: ids.c, folderIds: [ids.b] });
    expect([inside.status, inside.body.error.message]).to.deep.equal([400, 'folders cannot be moved inside themselves or one of its children: B']);
    await folder('A', null);
    const taken = await call('POST', '/upload/actions/bulk-move', { destinationFolderId: null, folderIds: [ids.a], fileIds: [ids.deep] });
    expect([taken.status, taken.body.error.message]).to.deep.equal([400, 'some folders already exists: A']);
    const renamed = await call('PUT', `/upload/folders/${ids.c}`, { name: 'A', parent: null });
    expect([renamed.status, renamed.body.error.message]).to.deep.equal([400, 'A folder with this name already exists']);
    const after = await paths();
    expect(after.files).to.deep.equal(before.files);
    expect({ ...after.folders, A: undefined }).to.deep.equal({ ...before.folders, A: undefined });
  });

  const long = 'x'.repeat(300);
  const BAD: Array<[string, string, unknown, number]> = [
    ['POST', '/upload/folders', [], 400],
    ['POST', '/upload/folders', { name: long, parent: null }, 400],
    ['POST', '/upload/folders', { name: 5 }, 400],
    ['POST', '/upload/folders', { name: 'ok', parent: 'abc' }, 400],
    ['POST', '/upload/folders', { name: 'ok', parent: { id: 1 } }, 400],
    ['PUT', '/upload/folders/abc', { name: 'x' }, 404],
    ['PUT', '/upload/folders/1', { parent: -1 }, 400],
    ['GET', '/upload/folders/abc', undefined, 404],
    ['GET', '/upload/files/abc', undefined, 404],
    ['DELETE', '/upload/files/abc', undefined, 404],
    ['GET', '/upload/files?sort=nope:ASC', undefined, 400],
    ['GET', '/upload/files?sort=name:sideways', undefined, 400],
    ['GET', '/upload/files?filters[nope][$eq]=1', undefined, 400],
    ['GET', '/upload/files?page=0', undefined, 400],
    ['GET', '/upload/files?pageSize=1000', undefined, 400],
    ['GET', '/upload/files?_q[$x]=1', undefined, 400],
    ['GET', '/upload/folders?sort=nope', undefined, 400],
    ['POST', '/upload/actions/bulk-move', { destinationFolderId: 'abc', fileIds: [] }, 400],
    ['POST', '/upload/actions/bulk-move', { destinationFolderId: null, fileIds: Array.from({ length: 1001 }, (_, index) => index) }, 400],
    ['POST', '/upload/actions/bulk-delete', { fileIds: [{}] }, 400],
    ['POST', '/upload/actions/bulk-delete', 'nothing', 400],
    ['PUT', '/upload/settings', { sizeOptimization: 1, responsiveDimensions: true }, 400],
    ['PUT', '/upload/configuration', { pageSize: 0 }, 400],
    ['PUT', '/upload/configuration', { pageSize: 1.5 }, 400],
    ['POST', '/i18n/locales', { code: 5, isDefault: 'yes' }, 400],
    ['POST', '/i18n/locales', { code: 'it', isDefault: false, name: long }, 400],
    ['PUT', '/i18n/locales/abc', { name: 'x' }, 404],
    ['DELETE', '/i18n/locales/abc', undefined, 404],
    ['POST', '/i18n/content-manager/actions/get-non-localized-fields', { model: 'api::nope.nope', id: 1, locale: 'fr' }, 400],
    ['POST', '/i18n/content-manager/actions/get-non-localized-fields', { model: 'api::page.page', id: 'abc', locale: 'fr' }, 404],
    ['POST', '/i18n/content-manager/actions/get-non-localized-fields', { model: 'api::page.page', id: -1, locale: 'fr' }, 400],
  ];
  for (const [method, path, body, status] of BAD) {
    it(`${method} ${path} ${JSON.stringify(body)?.slice(0, 60) ?? ''}: ${status} in the error envelope`, async () => {
      const response = await call(method, path, body);
      expect([response.status, response.body?.data, response.body?.error?.status]).to.deep.equal([status, null, status]);
    });
  }

  it('refuses file info longer than its column, on upload and on edit', async () => {
    const fileInfo = JSON.stringify({ name: 'long.png', alternativeText: long });
    const sent = await send(media, { title: 'long', method: 'POST', path: '/upload', form: { files: [{ image: 'a', name: 'long.png' }], fileInfo: [fileInfo] }, status: 400, answer: null }, images);
    expect(sent.status).to.equal(400);
    const edit = await send(media, { title: 'long', method: 'POST', path: `/upload?id=${ids.top}`, form: { files: [], fileInfo: [JSON.stringify({ caption: long })] }, status: 400, answer: null }, images);
    expect(edit.status).to.equal(400);
    expect(await media.app.app.db.query(FILE_UID).count({ where: { name: 'long.png' } })).to.equal(0);
  });

  it("filters by type as the panel's asset picker asks (images, or anything but images and videos)", async () => {
    const images = await call('GET', '/upload/files?pageSize=100&filters[$and][0][mime][$contains]=image');
    expect([images.status, images.body.pagination.total]).to.deep.equal([200, 2]);
    const others = await call('GET', '/upload/files?pageSize=100&filters[$and][0][mime][$not][$contains][0]=image&filters[$and][0][mime][$not][$contains][1]=video');
    expect([others.status, others.body.pagination.total]).to.deep.equal([200, 0]);
  });

  async function statements(path: string): Promise<number> {
    const seen: string[] = [];
    const stop = media.app.app.db.sql.onQuery((sql) => seen.push(sql));
    try {
      const response = await call('GET', path);
      expect(response.status).to.equal(200);
    } finally {
      stop();
    }
    return seen.length;
  }

  it('answers a page of files and the folder list in the same statements whatever they hold', async () => {
    const files = '/upload/files?page=1&pageSize=10&sort=updatedAt:DESC&filters[$and][0][folderPath][$eq]=/2/3';
    const folders = '/upload/folders?sort=createdAt:DESC&filters[$and][0][parent][id][$null]=true&pagination[pageSize]=-1';
    const few = [await statements(files), await statements(folders)];
    for (let index = 0; index < 8; index += 1) {
      await upload(`more-${index}.png`, ids.c);
      await folder(`Root ${index}`, null);
    }
    expect((await call('GET', files)).body.results).to.have.length(9);
    expect([await statements(files), await statements(folders)]).to.deep.equal(few);
  });
});

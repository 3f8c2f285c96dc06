/**
 * POST /api/upload and the file routes over real HTTP on both databases:
 * one and several files, fileInfo, ref/refId/field linking, replace,
 * fileInfo-only update, list (filters, sort, start/limit, pagination),
 * findOne with related, delete (bytes and links gone), permissions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { FILE_KEYS, file, multipart, png, startUploadApp, storedFiles, type UploadApp } from './fixture';

const HASH = /^[A-Za-z0-9_]+_[0-9a-f]{10}$/;

eachDatabase('upload: POST /api/upload and the file routes', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect);
  });
  after(() => ctx?.app.stop());

  const upload = (parts: Parameters<typeof multipart>[2], query = '') => multipart(ctx.app, `/api/upload${query}`, parts, ctx.token);
  const createPost = async (data: Record<string, unknown>) => (await ctx.app.post('/api/posts', { data }, { token: ctx.token })).body.data;

  it('one file: a bare array with Strapi\'s file object, bytes stored under the hash', async () => {
    const response = await upload([file('hello world', 'hello notes.txt', 'text/plain')]);
    expect(response.status).to.equal(200);
    expect(response.body).to.be.an('array').with.length(1);
    const [uploaded] = response.body;
    expect(Object.keys(uploaded)).to.deep.equal(FILE_KEYS);
    expect(uploaded.hash).to.match(/^hello_notes_[0-9a-f]{10}$/);
    expect(uploaded).to.deep.include({
      name: 'hello notes.txt', alternativeText: null, caption: null, width: null, height: null, formats: null,
      ext: '.txt', mime: 'text/plain', size: 0.01, url: `/uploads/${uploaded.hash}.txt`, previewUrl: null,
      provider: 'local', provider_metadata: null,
    });
    expect(uploaded.createdAt).to.equal(uploaded.updatedAt);
    expect(fs.readFileSync(path.join(ctx.uploadsDir, `${uploaded.hash}.txt`), 'utf8')).to.equal('hello world');
    const served = await fetch(`${ctx.app.url}${uploaded.url}`);
    expect(served.status).to.equal(200);
    expect(await served.text()).to.equal('hello world');
  });

  it('several files with a fileInfo array: in order, each with its own info; size is KB with 2 decimals', async () => {
    const response = await upload([
      file('a'.repeat(1234), 'first.txt'),
      file('b'.repeat(20_000), 'second.md'),
      { name: 'fileInfo', value: JSON.stringify([{ name: 'First', alternativeText: 'alt 1', caption: 'cap 1' }, { caption: 'cap 2' }]) },
    ]);
    expect(response.status).to.equal(200);
    const [first, second] = response.body;
    expect(first).to.deep.include({ name: 'First', alternativeText: 'alt 1', caption: 'cap 1', ext: '.txt', mime: 'text/plain', size: 1.23 });
    expect(first.hash).to.match(/^First_[0-9a-f]{10}$/);
    expect(second).to.deep.include({ name: 'second.md', alternativeText: null, caption: 'cap 2', ext: '.md', mime: 'text/markdown', size: 20 });
    expect(second.id).to.equal(first.id + 1);
  });

  it('fileInfo as one form field per file works too', async () => {
    const response = await upload([
      file('x', 'x.txt'),
      file('y', 'y.txt'),
      { name: 'fileInfo', value: JSON.stringify({ name: 'X' }) },
      { name: 'fileInfo', value: JSON.stringify({ name: 'Y' }) },
    ]);
    expect(response.body.map((item: { name: string }) => item.name)).to.deep.equal(['X', 'Y']);
  });

  it('no file is a 400 "Files are empty"; nothing is stored', async () => {
    const before = storedFiles(ctx.uploadsDir);
    const response = await upload([{ name: 'fileInfo', value: '{"name":"x"}' }]);
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal({ data: null, error: { status: 400, name: 'ValidationError', message: 'Files are empty', details: {} } });
    const json = await ctx.app.post('/api/upload', { fileInfo: { name: 'x' } }, { token: ctx.token });
    expect(json.status).to.equal(400);
    expect(json.body.error.message).to.equal('Files are empty');
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
  });

  it('anonymous callers get 403 on every upload route (the public role has no upload action)', async () => {
    const before = storedFiles(ctx.uploadsDir);
    const anonymous = await multipart(ctx.app, '/api/upload', [file('x', 'x.txt')]);
    expect(anonymous.status).to.equal(403);
    expect(anonymous.body).to.deep.equal({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    expect((await ctx.app.get('/api/upload/files')).status).to.equal(403);
    expect((await ctx.app.get('/api/upload/files/1')).status).to.equal(403);
    expect((await ctx.app.delete('/api/upload/files/1')).status).to.equal(403);
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
  });

  it('a token with only upload.find may list but not upload or delete', async () => {
    const { accessKey } = await ctx.app.app.apiTokens.create({ name: `find-${Date.now()}`, type: 'custom', permissions: ['plugin::upload.content-api.find'] });
    expect((await ctx.app.get('/api/upload/files', { token: accessKey })).status).to.equal(200);
    expect((await ctx.app.get('/api/upload/files/1', { token: accessKey })).status).to.equal(403);
    expect((await multipart(ctx.app, '/api/upload', [file('x', 'x.txt')], accessKey)).status).to.equal(403);
    expect((await ctx.app.delete('/api/upload/files/1', { token: accessKey })).status).to.equal(403);
  });

  it('?id= with only fileInfo updates name, alternativeText and caption; the bytes stay', async () => {
    const [created] = (await upload([file('keep me', 'note.txt')])).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await upload([{ name: 'fileInfo', value: JSON.stringify({ name: 'renamed.txt', caption: 'new caption' }) }], `?id=${created.id}`);
    expect(response.status).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(FILE_KEYS);
    expect(response.body).to.deep.equal({ ...created, name: 'renamed.txt', caption: 'new caption', updatedAt: response.body.updatedAt });
    expect(Date.parse(response.body.updatedAt)).to.be.greaterThan(Date.parse(created.updatedAt));
    expect(fs.readFileSync(path.join(ctx.uploadsDir, `${created.hash}.txt`), 'utf8')).to.equal('keep me');
    const missing = await upload([{ name: 'fileInfo', value: '{"name":"x"}' }], '?id=999999');
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.deep.include({ name: 'NotFoundError', message: 'file.notFound' });
  });

  it('?id= with a file replaces the content: same id and hash, new bytes, old bytes of another type removed', async () => {
    const [created] = (await upload([file('old text', 'doc.txt'), { name: 'fileInfo', value: '{"alternativeText":"kept"}' }])).body;
    const image = await png(300, 200);
    const response = await upload([file(image, 'picture.png', 'image/png')], `?id=${created.id}`);
    expect(response.status).to.equal(200);
    const replaced = response.body;
    expect(replaced).to.deep.include({ id: created.id, hash: created.hash, name: 'picture.png', alternativeText: 'kept', ext: '.png', mime: 'image/png', width: 300, height: 200 });
    expect(replaced.url).to.equal(`/uploads/${created.hash}.png`);
    expect(Object.keys(replaced.formats)).to.deep.equal(['thumbnail']);
    expect(fs.existsSync(path.join(ctx.uploadsDir, `${created.hash}.txt`))).to.equal(false);
    expect(fs.existsSync(path.join(ctx.uploadsDir, `${created.hash}.png`))).to.equal(true);
    const again = await upload([file('plain again', 'back.txt')], `?id=${created.id}`);
    // Strapi clears a replaced file's formats to `{}` whatever comes in (recorded in the media library's replay).
    expect(again.body).to.deep.include({ id: created.id, ext: '.txt', formats: {}, width: null });
    expect(storedFiles(ctx.uploadsDir).filter((name) => name.includes(created.hash))).to.deep.equal([`${created.hash}.txt`]);
  });

  it('ref/refId/field links the new files: a single field is replaced, a multiple one appended', async () => {
    const post = await createPost({ title: 'linked' });
    const link = (filename: string, field: string) =>
      upload([file('x', filename), { name: 'ref', value: 'api::post.post' }, { name: 'refId', value: String(post.id) }, { name: 'field', value: field }]);
    const [cover1] = (await link('c1.txt', 'cover')).body;
    const [cover2] = (await link('c2.txt', 'cover')).body;
    const [g1] = (await link('g1.txt', 'gallery')).body;
    const [g2] = (await link('g2.txt', 'gallery')).body;
    const read = await ctx.app.get(`/api/posts/${post.id}?populate[cover][fields][0]=name&populate[gallery][fields][0]=name&fields[0]=title`);
    expect(read.body.data.attributes).to.deep.equal({
      title: 'linked',
      cover: { data: { id: cover2.id, attributes: { name: 'c2.txt' } } },
      gallery: { data: [{ id: g1.id, attributes: { name: 'g1.txt' } }, { id: g2.id, attributes: { name: 'g2.txt' } }] },
    });
    expect(cover1.id).to.be.a('number');
  });

  it('bad ref/refId/field is a 400 before anything is stored', async () => {
    const before = storedFiles(ctx.uploadsDir);
    const post = await createPost({ title: 'target' });
    const cases: Array<[Record<string, string>, string]> = [
      [{ ref: 'api::nope.nope', refId: String(post.id), field: 'cover' }, 'ref: unknown content type api::nope.nope'],
      [{ ref: 'api::post.post', refId: String(post.id), field: 'title' }, 'field: api::post.post has no media attribute title'],
      [{ ref: 'api::post.post', refId: '999999', field: 'cover' }, 'refId: api::post.post has no entry 999999'],
      [{ ref: 'api::post.post', field: 'cover' }, 'ref, refId and field go together'],
    ];
    for (const [fields, message] of cases) {
      const parts = [file('x', 'x.txt'), ...Object.entries(fields).map(([name, value]) => ({ name, value }))];
      const response = await upload(parts);
      expect(response.status, message).to.equal(400);
      expect(response.body.error.message).to.equal(message);
    }
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
  });

  it('fileInfo cannot set url, hash, provider or path, and must be JSON', async () => {
    for (const key of ['url', 'hash', 'provider', 'path']) {
      const response = await upload([file('x', 'x.txt'), { name: 'fileInfo', value: JSON.stringify({ [key]: 'evil' }) }]);
      expect(response.status, key).to.equal(400);
      expect(response.body.error.message).to.equal(`fileInfo.${key} cannot be set`);
    }
    const folder = await upload([file('x', 'x.txt'), { name: 'fileInfo', value: JSON.stringify({ name: 'in root', folder: null }) }]);
    expect(folder.status).to.equal(200);
    expect(folder.body[0].name).to.equal('in root');
    const folderId = await upload([file('x', 'x.txt'), { name: 'fileInfo', value: JSON.stringify({ folder: 3 }) }]);
    expect(folderId.status).to.equal(400);
    expect(folderId.body.error.message).to.equal('fileInfo.folder cannot be set');
    const invalid = await upload([file('x', 'x.txt'), { name: 'fileInfo', value: '{not json' }]);
    expect(invalid.status).to.equal(400);
    expect(invalid.body.error.message).to.equal('fileInfo must be JSON');
  });

  describe('list and read', () => {
    let ids: number[];
    before(async () => {
      const names = ['list-b.txt', 'list-a.txt', 'list-c.txt'];
      ids = [];
      for (const name of names) ids.push((await upload([file(name, name)])).body[0].id);
    });

    it('GET /api/upload/files: a bare array, filterable and sortable', async () => {
      const response = await ctx.app.get('/api/upload/files?filters[name][$startsWith]=list-&sort=name:asc', { token: ctx.token });
      expect(response.status).to.equal(200);
      expect(response.body.map((item: { name: string }) => item.name)).to.deep.equal(['list-a.txt', 'list-b.txt', 'list-c.txt']);
      expect(Object.keys(response.body[0])).to.deep.equal(FILE_KEYS);
      const desc = await ctx.app.get('/api/upload/files?filters[name][$startsWith]=list-&sort=id:desc', { token: ctx.token });
      expect(desc.body.map((item: { id: number }) => item.id)).to.deep.equal([...ids].reverse());
    });

    it('start/limit at the top level, and pagination, page the list', async () => {
      const base = '/api/upload/files?filters[name][$startsWith]=list-&sort=id:asc';
      const offset = await ctx.app.get(`${base}&start=1&limit=1`, { token: ctx.token });
      expect(offset.body.map((item: { id: number }) => item.id)).to.deep.equal([ids[1]]);
      const page = await ctx.app.get(`${base}&pagination[page]=2&pagination[pageSize]=2`, { token: ctx.token });
      expect(page.body.map((item: { id: number }) => item.id)).to.deep.equal([ids[2]]);
    });

    it('an unknown or private filter field is a 400, never a 500', async () => {
      for (const query of ['filters[nope][$eq]=1', 'filters[folderPath][$eq]=/', 'sort=nope:asc']) {
        const response = await ctx.app.get(`/api/upload/files?${query}`, { token: ctx.token });
        expect(response.status, query).to.equal(400);
        expect(response.body.error.name).to.equal('ValidationError');
      }
    });

    it('GET /api/upload/files/:id answers the file; unknown ids are 404 file.notFound', async () => {
      const one = await ctx.app.get(`/api/upload/files/${ids[0]}`, { token: ctx.token });
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.include({ id: ids[0], name: 'list-b.txt' });
      expect(Object.keys(one.body)).to.deep.equal(FILE_KEYS);
      for (const id of ['999999', 'abc']) {
        const missing = await ctx.app.get(`/api/upload/files/${id}`, { token: ctx.token });
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'file.notFound', details: {} } });
      }
    });

    it('populate=related lists the linked entries with __type, without private fields', async () => {
      const post = await createPost({ title: 'with related', secret: 'hidden', gallery: [ids[0]] });
      const other = await createPost({ title: 'second', cover: ids[0] });
      const response = await ctx.app.get(`/api/upload/files/${ids[0]}?populate=related`, { token: ctx.token });
      expect(response.status).to.equal(200);
      const related = response.body.related as Array<Record<string, unknown>>;
      expect(related.map((entry) => [entry.__type, entry.id, entry.title])).to.deep.equal([
        ['api::post.post', post.id, 'with related'],
        ['api::post.post', other.id, 'second'],
      ]);
      expect(related[0]).not.to.have.property('secret');
      const listed = await ctx.app.get(`/api/upload/files?filters[id][$eq]=${ids[1]}&populate=related`, { token: ctx.token });
      expect(listed.body[0].related).to.deep.equal([]);
      const plain = await ctx.app.get(`/api/upload/files/${ids[0]}`, { token: ctx.token });
      expect(plain.body).not.to.have.property('related');
    });
  });

  it('DELETE /api/upload/files/:id answers the file, removes its bytes and formats and every link', async () => {
    const [image] = (await upload([file(await png(400, 300), 'gone.png', 'image/png')])).body;
    const post = await createPost({ title: 'pointing', cover: image.id, gallery: [image.id] });
    const stored = storedFiles(ctx.uploadsDir).filter((name) => name.includes(image.hash));
    expect(stored).to.have.length(2);
    const response = await ctx.app.delete(`/api/upload/files/${image.id}`, { token: ctx.token });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal(image);
    expect(storedFiles(ctx.uploadsDir).filter((name) => name.includes(image.hash))).to.deep.equal([]);
    expect((await fetch(`${ctx.app.url}${image.url}`)).status).to.equal(404);
    const read = await ctx.app.get(`/api/posts/${post.id}?populate=*`);
    expect(read.body.data.attributes.cover).to.deep.equal({ data: null });
    expect(read.body.data.attributes.gallery).to.deep.equal({ data: [] });
    const morphs = await ctx.app.app.db.sql.all(ctx.app.app.db.sql.knex('files_related_morphs').where('file_id', image.id));
    expect(morphs).to.deep.equal([]);
    const again = await ctx.app.delete(`/api/upload/files/${image.id}`, { token: ctx.token });
    expect(again.status).to.equal(404);
    expect(again.body.error.message).to.equal('file.notFound');
  });

  it('hashes are safe names', async () => {
    const response = await upload([file('x', 'Ünïcødé fîle—name (1).txt')]);
    expect(response.body[0].hash).to.match(HASH);
    expect(response.body[0].hash).to.match(/^Unicode_file_name_1_[0-9a-f]{10}$/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import restPlugin from '@tessera/plugin-rest';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import uploadPlugin from '../src';
import { file, multipart, png, startUploadApp, storedFiles, type UploadApp } from './fixture';

/**
 * Server code (the v4 blog template's bootstrap seed, plugins) calls the
 * upload service as Strapi v4 defines it: `upload({ data, files })` with
 * formidable-like file objects. The file is read in place, stored through
 * the provider, and linked when `ref`/`refId`/`field` are given; the entity
 * service then takes the file's id in a media field, and ignores
 * `publishedAt` on a type without draft & publish, as the seed sends it.
 */
interface UploadService {
  upload(call: { data?: Record<string, unknown>; files: unknown }): Promise<Array<Record<string, unknown>>>;
}

eachDatabase("upload service: Strapi's upload({ data, files })", (dialect) => {
  let upload: UploadApp;
  let source: string;
  before(async () => {
    upload = await startUploadApp(dialect);
    source = path.join(upload.app.dir, 'seed-photo.png');
    fs.writeFileSync(source, await png(40, 30));
  });
  after(() => upload?.app.stop());

  const service = () => upload.app.app.plugin('upload')!.service('upload');

  it('uploads one file given as { path, name, type, size } with fileInfo, leaving the source file in place', async () => {
    const [file] = await service().upload({
      files: { path: source, name: 'seed-photo.png', type: 'image/png', size: 1 },
      data: { fileInfo: { alternativeText: 'A photo', caption: 'photo', name: 'photo' } },
    });
    expect({ name: file.name, alternativeText: file.alternativeText, caption: file.caption, mime: file.mime, ext: file.ext, width: file.width, height: file.height }).to.deep.equal({
      name: 'photo',
      alternativeText: 'A photo',
      caption: 'photo',
      mime: 'image/png',
      ext: '.png',
      width: 40,
      height: 30,
    });
    expect(fs.existsSync(source)).to.equal(true);
    expect(storedFiles(upload.uploadsDir)).to.include(`${String(file.hash)}.png`);
    const listed = await upload.app.get('/api/upload/files', { token: upload.token });
    expect(listed.body.map((row: { id: number }) => row.id)).to.include(file.id);
  });

  it('takes a list of { filepath, originalFilename, mimetype } and links them with ref/refId/field', async () => {
    const post = await upload.app.app.entityService.create('api::post.post', { data: { title: 'Seeded', publishedAt: '2024-01-01T00:00:00.000Z' } });
    const files = await service().upload({
      files: [
        { filepath: source, originalFilename: 'one.png', mimetype: 'image/png' },
        { filepath: source, originalFilename: 'two.png', mimetype: 'image/png' },
      ],
      data: { ref: 'api::post.post', refId: post.id, field: 'gallery' },
    });
    expect(files.map((file) => file.name)).to.deep.equal(['one.png', 'two.png']);
    const read = await upload.app.get(`/api/posts/${post.id}?populate=gallery`);
    expect(read.body.data.attributes.gallery.data.map((file: { id: number }) => file.id)).to.deep.equal(files.map((file) => file.id));
  });

  it('a missing file is a 400-class ValidationError naming the file, and nothing is stored', async () => {
    const before = storedFiles(upload.uploadsDir).length;
    const error = await service()
      .upload({ files: { path: path.join(upload.app.dir, 'nope.png'), name: 'nope.png' } })
      .then(() => undefined, (failure: Error) => failure);
    expect(error?.name).to.equal('ValidationError');
    expect(error?.message).to.match(/no file at .*nope\.png/);
    expect(storedFiles(upload.uploadsDir).length).to.equal(before);
  });

  it('entity service: publishedAt on a type without draft & publish is ignored, as are keys that are no attribute (the REST API refuses those)', async () => {
    const created = await upload.app.app.entityService.create('api::post.post', { data: { title: 'Plain', publishedAt: new Date().toISOString() } });
    expect(created.title).to.equal('Plain');
    expect(created).not.to.have.property('publishedAt');
    const updated = await upload.app.app.entityService.update('api::post.post', created.id, { data: { title: 'Plainer', publishedAt: null } });
    expect(updated.title).to.equal('Plainer');
    // Strapi's query engine keeps only attributes (strapi-plugin-website-builder logs `{ status, trigger, timestamp }`).
    const dropped = await upload.app.app.entityService.create('api::post.post', { data: { title: 'x', bogus: 1 } });
    expect(dropped.title).to.equal('x');
    expect(dropped).not.to.have.property('bogus');
    const refused = await upload.app.post('/api/posts', { data: { title: 'x', bogus: 1 } }, { token: upload.token });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.deep.include({ name: 'ValidationError', message: 'Invalid key bogus' });
    const rest = await upload.app.post('/api/posts', { data: { title: 'Over REST', publishedAt: '2024-01-01T00:00:00.000Z' } }, { token: upload.token });
    expect(rest.status).to.equal(200);
    expect(rest.body.data.attributes).not.to.have.property('publishedAt');
  });
});

eachDatabase('upload routes under api.rest.prefix', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, plugins: [restPlugin, uploadPlugin], config: { api: { rest: { prefix: '/v1' } }, plugins: { upload: { enabled: true } } } });
  });
  after(() => app?.stop());

  it('POST <prefix>/upload streams the multipart body itself, as under /api', async () => {
    const token = await app.fullAccessToken();
    const response = await multipart(app, '/v1/upload', [file(await png(20, 10), 'small.png', 'image/png')], token);
    expect(response.status).to.equal(200);
    expect(response.body.map((row: { name: string; width: number }) => [row.name, row.width])).to.deep.equal([['small.png', 20]]);
    expect((await app.get('/api/upload/files', { token })).status).to.equal(404);
  });
});

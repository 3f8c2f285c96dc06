/**
 * Media fields through REST with files made by the upload plugin: set by id
 * on create and update, cleared with null / [], populated in Strapi's shape,
 * and unknown file ids refused — on both databases.
 */
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, startUploadApp, type UploadApp } from './fixture';

eachDatabase('upload: media fields set, cleared and populated', (dialect) => {
  let ctx: UploadApp;
  let files: Array<{ id: number; name: string; url: string }>;
  before(async () => {
    ctx = await startUploadApp(dialect);
    const response = await multipart(ctx.app, '/api/upload', [file('1', 'one.txt'), file('2', 'two.txt'), file('3', 'three.txt')], ctx.token);
    files = response.body;
  });
  after(() => ctx?.app.stop());

  const populate = 'populate[cover][fields][0]=name&populate[gallery][fields][0]=name&fields[0]=title';
  const shape = (file: { id: number; name: string }) => ({ id: file.id, attributes: { name: file.name } });

  it('create with cover = id and gallery = [ids] answers and reads them back in order', async () => {
    const created = await ctx.app.post(`/api/posts?${populate}`, { data: { title: 'p', cover: files[0].id, gallery: [files[2].id, files[1].id] } }, { token: ctx.token });
    expect(created.status).to.equal(200);
    const expected = { title: 'p', cover: { data: shape(files[0]) }, gallery: { data: [shape(files[2]), shape(files[1])] } };
    expect(created.body.data.attributes).to.deep.equal(expected);
    const read = await ctx.app.get(`/api/posts/${created.body.data.id}?${populate}`);
    expect(read.body.data.attributes).to.deep.equal(expected);
    const morphs = await ctx.app.app.db.sql.all(
      ctx.app.app.db.sql.knex('files_related_morphs').select('file_id', 'related_type', 'field', 'order').where('related_id', created.body.data.id).orderBy(['field', 'order']),
    );
    expect(morphs.map((row) => [Number(row.file_id), row.related_type, row.field, Number(row.order)])).to.deep.equal([
      [files[0].id, 'api::post.post', 'cover', 1],
      [files[2].id, 'api::post.post', 'gallery', 1],
      [files[1].id, 'api::post.post', 'gallery', 2],
    ]);
  });

  it('update sets, replaces and clears; fields not sent stay', async () => {
    const id = (await ctx.app.post('/api/posts', { data: { title: 'u', gallery: [files[0].id] } }, { token: ctx.token })).body.data.id;
    const set = await ctx.app.put(`/api/posts/${id}?${populate}`, { data: { cover: files[1].id } }, { token: ctx.token });
    expect(set.body.data.attributes).to.deep.equal({ title: 'u', cover: { data: shape(files[1]) }, gallery: { data: [shape(files[0])] } });
    const replaced = await ctx.app.put(`/api/posts/${id}?${populate}`, { data: { gallery: [files[1].id, files[0].id] } }, { token: ctx.token });
    expect(replaced.body.data.attributes.gallery).to.deep.equal({ data: [shape(files[1]), shape(files[0])] });
    const cleared = await ctx.app.put(`/api/posts/${id}?${populate}`, { data: { cover: null, gallery: [] } }, { token: ctx.token });
    expect(cleared.body.data.attributes).to.deep.equal({ title: 'u', cover: { data: null }, gallery: { data: [] } });
  });

  it('populate=cover gives the whole file object in Strapi\'s shape', async () => {
    const id = (await ctx.app.post('/api/posts', { data: { title: 'full', cover: files[0].id } }, { token: ctx.token })).body.data.id;
    const read = await ctx.app.get(`/api/posts/${id}?populate=cover&fields[0]=title`);
    const { id: fileId, ...attributes } = (await ctx.app.get(`/api/upload/files/${files[0].id}`, { token: ctx.token })).body;
    expect(read.body.data.attributes.cover).to.deep.equal({ data: { id: fileId, attributes } });
  });

  it('a file deleted by server code through db.query takes its links with it: the fields pointing at it read empty', async () => {
    const [spare] = (await multipart(ctx.app, '/api/upload', [file('4', 'four.txt')], ctx.token)).body;
    const id = (await ctx.app.post('/api/posts', { data: { title: 'linked', cover: spare.id, gallery: [spare.id, files[0].id] } }, { token: ctx.token })).body.data.id;
    await ctx.app.app.db.query('plugin::upload.file').delete({ where: { id: spare.id } });
    const morphs = await ctx.app.app.db.sql.all(ctx.app.app.db.sql.knex('files_related_morphs').where('file_id', spare.id));
    expect(morphs).to.deep.equal([]);
    const read = await ctx.app.get(`/api/posts/${id}?${populate}`);
    expect(read.body.data.attributes).to.deep.equal({ title: 'linked', cover: { data: null }, gallery: { data: [shape(files[0])] } });
  });

  it('an unknown file id is a 400 and changes nothing', async () => {
    const id = (await ctx.app.post('/api/posts', { data: { title: 'keep', cover: files[0].id } }, { token: ctx.token })).body.data.id;
    const response = await ctx.app.put(`/api/posts/${id}`, { data: { title: 'changed', cover: 999999 } }, { token: ctx.token });
    expect(response.status).to.equal(400);
    expect(response.body.error.name).to.equal('ValidationError');
    const read = await ctx.app.get(`/api/posts/${id}?${populate}`);
    expect(read.body.data.attributes).to.deep.include({ title: 'keep', cover: { data: shape(files[0]) } });
  });
});

/**
 * Attributes another plugin adds to the file type in its `register`
 * (strapi-plugin-placeholder adds `placeholder`, filled by its lifecycle):
 * answered after Strapi's keys by every file route, as Strapi answers every
 * public attribute of the file; a private one stays out.
 */
import { expect } from 'chai';
import type { Plugin } from '@tessera/core';
import { eachDatabase } from '@tessera/testing';
import { FILE_KEYS, file, multipart, startUploadApp, type UploadApp } from './fixture';

const blurbs: Plugin = {
  name: 'blurbs',
  register({ app }) {
    const { attributes } = app.plugin('upload')!.contentTypes.file;
    attributes.blurb = { type: 'text' };
    attributes.note = { type: 'text', private: true };
  },
  bootstrap({ app }) {
    app.db.lifecycles.subscribe({
      models: ['plugin::upload.file'],
      beforeCreate(event) {
        Object.assign(event.params.data as Record<string, unknown>, { blurb: `about ${String((event.params.data as { name: string }).name)}`, note: 'kept back' });
      },
    });
  },
};

eachDatabase('upload: attributes other plugins add to the file type', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, {}, [blurbs]);
  });
  after(() => ctx?.app.stop());

  it('answers them after Strapi\'s keys on upload, get and list; private ones are left out', async () => {
    const response = await multipart(ctx.app, '/api/upload', [file('words', 'words.txt', 'text/plain')], ctx.token);
    expect(response.status).to.equal(200);
    const [uploaded] = response.body;
    expect(Object.keys(uploaded)).to.deep.equal([...FILE_KEYS, 'blurb']);
    expect(uploaded.blurb).to.equal('about words.txt');
    const one = await ctx.app.get(`/api/upload/files/${uploaded.id}`, { token: ctx.token });
    expect(one.body).to.deep.equal(uploaded);
    const list = await ctx.app.get('/api/upload/files', { token: ctx.token });
    expect(list.body).to.deep.equal([uploaded]);
    const row = await ctx.app.app.db.query('plugin::upload.file').findOne({ where: { id: uploaded.id } });
    expect(row).to.deep.include({ blurb: 'about words.txt', note: 'kept back' });
  });
});

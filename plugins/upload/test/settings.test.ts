/**
 * The upload's settings where Strapi v4 keeps them (core store row
 * `plugin_upload_settings`), read by the image functions on each upload; and
 * Strapi's `require('@strapi/plugin-upload/strapi-server')`, whose
 * image-manipulation factory a plugin calls bare and spreads into its own
 * service (strapi-plugin-responsive-image, strapi-plugin-image-optimizer).
 * Over real uploads, every database.
 */
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, png, startUploadApp, type UploadApp } from './fixture';

const STORE_KEY = 'plugin_upload_settings';

async function storedRow(ctx: UploadApp): Promise<unknown> {
  const row = await ctx.app.app.db.query('strapi::core-store').findOne({ where: { key: STORE_KEY } });
  return row ? JSON.parse(String(row.value)) : null;
}

/** Wider than the largest breakpoint (1000), so every format is made, and short: encoding the formats is most of the CPU. */
async function uploadWide(ctx: UploadApp): Promise<Record<string, any>> {
  const response = await multipart(ctx.app, '/api/upload', [file(await png(1100, 150), 'wide.png', 'image/png')], ctx.token);
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body[0];
}

/** An extension written as those plugins' READMEs ask: Strapi's factory called bare, spread, one function replaced. */
const SPREAD_EXTENSION = `
const uploadServer = require('@strapi/plugin-upload/strapi-server');
const imageManipulation = uploadServer().services['image-manipulation'];
module.exports = (plugin) => {
  plugin.services['image-manipulation'] = () => ({
    ...imageManipulation(),
    async generateResponsiveFormats(file) {
      const { responsiveDimensions } = await strapi.plugin('upload').service('upload').getSettings();
      if (!responsiveDimensions) return [];
      const square = await imageManipulation().resizeFileTo(file, { width: 64, height: 64 }, { name: 'square_' + file.name, hash: 'square_' + file.hash });
      return [{ key: 'square', file: square }];
    },
  });
  return plugin;
};
`;

eachDatabase('upload: settings in the core store', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect);
  });
  after(() => ctx?.app.stop());

  it("boots with Strapi's defaults stored, answered by getSettings", async () => {
    const expected = { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false };
    expect(await storedRow(ctx)).to.deep.equal(expected);
    expect(await ctx.app.app.plugin('upload')!.service('upload').getSettings()).to.deep.equal(expected);
  });

  it('setSettings changes what the next upload makes; a wrong value is a 400 and changes nothing', async () => {
    const upload = ctx.app.app.plugin('upload')!.service('upload');
    await upload.setSettings({ sizeOptimization: true, responsiveDimensions: false, autoOrientation: false });
    expect(Object.keys((await uploadWide(ctx)).formats)).to.deep.equal(['thumbnail']);
    let refused: unknown;
    try {
      await upload.setSettings({ responsiveDimensions: 'yes' });
    } catch (error) {
      refused = error;
    }
    expect(refused).to.include({ name: 'ValidationError', status: 400, message: 'responsiveDimensions must be a boolean' });
    expect(await storedRow(ctx)).to.deep.equal({ sizeOptimization: true, responsiveDimensions: false, autoOrientation: false });
    await upload.setSettings({ sizeOptimization: true, responsiveDimensions: true, autoOrientation: false });
    expect(Object.keys((await uploadWide(ctx)).formats)).to.deep.equal(['thumbnail', 'large', 'medium', 'small']);
  });
});

eachDatabase('upload: settings named in config', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, { responsiveDimensions: false });
  });
  after(() => ctx?.app.stop());

  it('are written over the stored ones at boot, the others keep their defaults', async () => {
    expect(await storedRow(ctx)).to.deep.equal({ sizeOptimization: true, responsiveDimensions: false, autoOrientation: false });
    expect(Object.keys((await uploadWide(ctx)).formats)).to.deep.equal(['thumbnail']);
  });
});

eachDatabase("upload: Strapi's strapi-server, its image-manipulation factory called bare by an extension", (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, {}, [], {}, { 'src/extensions/upload/strapi-server.js': SPREAD_EXTENSION });
  });
  after(() => ctx?.app.stop());

  it("the spread functions run for the app's upload (settings read from its store); the replaced one makes the formats", async () => {
    const image = await uploadWide(ctx);
    expect(Object.keys(image.formats)).to.deep.equal(['thumbnail', 'square']);
    // No fit given: sharp's default (cover), as Strapi hands the options to resize.
    expect(image.formats.square).to.deep.include({ name: 'square_wide.png', hash: `square_${image.hash}`, width: 64, height: 64, mime: 'image/png' });
    await ctx.app.app.plugin('upload')!.service('upload').setSettings({ sizeOptimization: false, responsiveDimensions: false, autoOrientation: false });
    expect(Object.keys((await uploadWide(ctx)).formats)).to.deep.equal(['thumbnail']);
  });

  it('a bare function that reads the settings, called outside an upload, says what it needs', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded: unknown = require('@strapi/plugin-upload/strapi-server');
    const server = (loaded as () => { services: Record<string, (context?: unknown) => Record<string, (file: unknown) => Promise<unknown>>> })();
    const bare = server.services['image-manipulation']();
    let failure: unknown;
    try {
      await bare.optimize({ name: 'x.png', mime: 'image/png' });
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.equal('TypeError: plugin::upload.image-manipulation was made without { strapi } and called outside an upload: make it with ({ strapi })');
    // Made with { strapi }, as Strapi code may call it: the app's own service.
    const made = server.services['image-manipulation']({ strapi: ctx.app.app });
    expect(await made.optimize({ name: 'x.txt', mime: 'text/plain', filepath: __filename })).to.include({ name: 'x.txt' });
  });
});

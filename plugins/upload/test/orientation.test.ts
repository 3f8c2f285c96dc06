/**
 * EXIF orientation and resize options as Strapi 4.26.2's image functions
 * treat them: the orientation is applied to the pixels only by the stored
 * `autoOrientation` setting (in `optimize`, before the formats are made from
 * the original), `width`/`height` are the stored pixels', and `resizeFileTo`
 * hands the caller's options to sharp's `resize`. Over real uploads of a real
 * JPEG carrying an Orientation tag, every database.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, png, startUploadApp, type UploadApp } from './fixture';

/** A 400×200 JPEG, left half red, right half blue, tagged Orientation 6 (shown turned 90° clockwise: red on top). */
async function sidewaysJpeg(): Promise<Buffer> {
  const pixels = Buffer.alloc(400 * 200 * 3);
  for (let y = 0; y < 200; y++) for (let x = 0; x < 400; x++) pixels.set(x < 200 ? [255, 0, 0] : [0, 0, 255], (y * 400 + x) * 3);
  return sharp(pixels, { raw: { width: 400, height: 200, channels: 3 } }).jpeg({ quality: 100 }).withMetadata({ orientation: 6 }).toBuffer();
}

async function upload(ctx: UploadApp, bytes: Buffer, name: string, type: string): Promise<Record<string, any>> {
  const response = await multipart(ctx.app, '/api/upload', [file(bytes, name, type)], ctx.token);
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body[0];
}

async function served(ctx: UploadApp, url: string): Promise<Buffer> {
  const response = await fetch(`${ctx.app.url}${url}`);
  expect(response.status, url).to.equal(200);
  return Buffer.from(await response.arrayBuffer());
}

/** The stored pixels (no orientation applied): their size, the tag, and whether the pixel at (x, y) is red or blue. */
async function look(bytes: Buffer, points: Array<[number, number]>): Promise<{ width?: number; height?: number; orientation?: number; colours: string[] }> {
  const { width, height, orientation } = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const colours = points.map(([x, y]) => {
    const at = (y * info.width + x) * 3;
    return data[at]! > 128 && data[at + 2]! < 128 ? 'red' : data[at + 2]! > 128 && data[at]! < 128 ? 'blue' : 'other';
  });
  return { width, height, orientation, colours };
}

/** An extension replacing the formats with resizes of the caller's options, through the default resizeFileTo. */
const RESIZES_EXTENSION = `
module.exports = (plugin) => {
  const original = plugin.services['image-manipulation'];
  plugin.services['image-manipulation'] = (context) => {
    const service = original(context);
    const resize = (file, key, options) => service.resizeFileTo(file, options, { name: key + '_' + file.name, hash: key + '_' + file.hash }).then((made) => ({ key, file: made }));
    return {
      ...service,
      async generateResponsiveFormats(file) {
        return Promise.all([
          resize(file, 'cover', { width: 64, height: 64 }),
          resize(file, 'inside', { width: 64, height: 64, fit: 'inside' }),
          resize(file, 'fill', { width: 30, height: 90, fit: 'fill' }),
          resize(file, 'unenlarged', { width: 5000, withoutEnlargement: true }),
        ]);
      },
    };
  };
  return plugin;
};
`;

eachDatabase('upload: EXIF orientation and the autoOrientation setting', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect);
  });
  after(() => ctx?.app.stop());

  it("off (Strapi's default): the pixels and their width/height stay as stored, the tag is kept", async () => {
    const image = await upload(ctx, await sidewaysJpeg(), 'sideways.jpg', 'image/jpeg');
    expect([image.width, image.height]).to.deep.equal([400, 200]);
    expect(await look(await served(ctx, image.url), [[10, 100], [390, 100]])).to.deep.equal({ width: 400, height: 200, orientation: 6, colours: ['red', 'blue'] });
    const thumbnail = image.formats.thumbnail;
    expect([thumbnail.width, thumbnail.height]).to.deep.equal([245, 122]);
    expect(await look(await served(ctx, thumbnail.url), [[5, 60], [240, 60]])).to.deep.equal({ width: 245, height: 122, orientation: 6, colours: ['red', 'blue'] });
  });

  it('on: the original is turned upright (no tag left), its size is the upright one, the formats are made from it', async () => {
    const service = ctx.app.app.plugin('upload')!.service('upload');
    await service.setSettings({ sizeOptimization: true, responsiveDimensions: true, autoOrientation: true });
    try {
      const image = await upload(ctx, await sidewaysJpeg(), 'sideways.jpg', 'image/jpeg');
      expect([image.width, image.height]).to.deep.equal([200, 400]);
      const original = await look(await served(ctx, image.url), [[100, 10], [100, 390]]);
      expect(original).to.deep.equal({ width: 200, height: 400, orientation: undefined, colours: ['red', 'blue'] });
      const thumbnail = image.formats.thumbnail;
      expect([thumbnail.width, thumbnail.height]).to.deep.equal([78, 156]);
      expect(await look(await served(ctx, thumbnail.url), [[39, 5], [39, 150]])).to.deep.equal({ width: 78, height: 156, orientation: undefined, colours: ['red', 'blue'] });
      // A file without the tag is stored as sent by the rotation (re-encoded only for size).
      const plain = await upload(ctx, await png(300, 100), 'plain.png', 'image/png');
      expect([plain.width, plain.height]).to.deep.equal([300, 100]);
    } finally {
      await service.setSettings({ sizeOptimization: true, responsiveDimensions: true, autoOrientation: false });
    }
  });
});

eachDatabase("upload: resizeFileTo hands the caller's options to sharp", (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, {}, [], {}, { 'src/extensions/upload/strapi-server.js': RESIZES_EXTENSION });
  });
  after(() => ctx?.app.stop());

  it('fit cover (sharp’s default), inside and fill, and withoutEnlargement, each as sharp makes it', async () => {
    const image = await upload(ctx, await png(1200, 800), 'wide.png', 'image/png');
    const sizes = Object.fromEntries(Object.entries(image.formats as Record<string, { width: number; height: number; url: string }>).map(([key, format]) => [key, [format.width, format.height]]));
    expect(sizes).to.deep.equal({ thumbnail: [234, 156], cover: [64, 64], inside: [64, 43], fill: [30, 90], unenlarged: [1200, 800] });
    const fill = await sharp(await served(ctx, image.formats.fill.url)).metadata();
    expect([fill.width, fill.height]).to.deep.equal([30, 90]);
  });
});

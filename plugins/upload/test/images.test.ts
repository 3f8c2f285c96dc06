/**
 * Image formats made with sharp, checked on the bytes served back: a
 * generated 1200×800 PNG gets a thumbnail and the large/medium/small
 * formats with the right dimensions; a tiny image gets none; a file sharp
 * cannot decode is stored plainly; breakpoints and responsiveDimensions
 * follow the config. Both databases.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, png, startUploadApp, storedFiles, type UploadApp } from './fixture';

const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];

async function served(ctx: UploadApp, url: string): Promise<Buffer> {
  const response = await fetch(`${ctx.app.url}${url}`);
  expect(response.status).to.equal(200);
  return Buffer.from(await response.arrayBuffer());
}

eachDatabase('upload: image formats', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect);
  });
  after(() => ctx?.app.stop());

  it('a 1200×800 PNG: width/height, thumbnail 234×156, large 1000×667, medium 750×500, small 500×333', async () => {
    const response = await multipart(ctx.app, '/api/upload', [file(await png(1200, 800), 'wide image.png', 'image/png')], ctx.token);
    expect(response.status).to.equal(200);
    const [image] = response.body;
    expect(image).to.deep.include({ width: 1200, height: 800, mime: 'image/png', ext: '.png' });
    expect(Object.keys(image.formats)).to.deep.equal(['thumbnail', 'large', 'medium', 'small']);
    const expected: Record<string, [number, number]> = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };
    for (const [key, [width, height]] of Object.entries(expected)) {
      const format = image.formats[key];
      expect(Object.keys(format), key).to.deep.equal(FORMAT_KEYS);
      expect(format).to.deep.include({
        name: `${key}_wide image.png`, hash: `${key}_${image.hash}`, ext: '.png', mime: 'image/png', path: null, width, height,
        url: `/uploads/${key}_${image.hash}.png`,
      });
      const bytes = await served(ctx, format.url);
      expect(format.sizeInBytes).to.equal(bytes.length);
      expect(format.size).to.equal(Math.round(bytes.length / 10) / 100);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height], key).to.deep.equal(['png', width, height]);
    }
    const original = await sharp(await served(ctx, image.url)).metadata();
    expect([original.width, original.height]).to.deep.equal([1200, 800]);
  });

  it('a JPEG is read with its dimensions and gets JPEG formats', async () => {
    const jpeg = await sharp(await png(800, 600)).jpeg({ quality: 95 }).toBuffer();
    const [image] = (await multipart(ctx.app, '/api/upload', [file(jpeg, 'photo.jpg', 'image/jpeg')], ctx.token)).body;
    expect(image).to.deep.include({ width: 800, height: 600, mime: 'image/jpeg', ext: '.jpg' });
    expect(Object.keys(image.formats)).to.deep.equal(['thumbnail', 'medium', 'small']);
    expect((await sharp(await served(ctx, image.formats.medium.url)).metadata()).format).to.equal('jpeg');
  });

  it('a tiny image gets its dimensions and no formats', async () => {
    const [image] = (await multipart(ctx.app, '/api/upload', [file(await png(100, 80), 'tiny.png', 'image/png')], ctx.token)).body;
    expect(image).to.deep.include({ width: 100, height: 80, formats: null, mime: 'image/png' });
    expect(storedFiles(ctx.uploadsDir).filter((name) => name.includes(image.hash))).to.deep.equal([`${image.hash}.png`]);
  });

  it('a file sharp cannot decode is stored without dimensions or formats, never a 500', async () => {
    const real = await png(400, 400);
    const broken = Buffer.concat([real.subarray(0, 64), Buffer.alloc(2000, 7)]);
    const response = await multipart(ctx.app, '/api/upload', [file(broken, 'broken.png', 'image/png')], ctx.token);
    expect(response.status).to.equal(200);
    expect(response.body[0]).to.deep.include({ mime: 'image/png', width: null, height: null, formats: null, size: 2.06 });
    expect((await served(ctx, response.body[0].url)).equals(broken)).to.equal(true);
  });
});

eachDatabase('upload: image format config', (dialect) => {
  it('breakpoints are configurable; responsiveDimensions false keeps only the thumbnail', async () => {
    const custom = await startUploadApp(dialect, { breakpoints: { xlarge: 1100, small: 500 }, sizeOptimization: false });
    try {
      const [image] = (await multipart(custom.app, '/api/upload', [file(await png(1200, 800), 'a.png', 'image/png')], custom.token)).body;
      expect(Object.keys(image.formats)).to.include.members(['thumbnail', 'xlarge', 'small']);
      expect([image.formats.xlarge.width, image.formats.xlarge.height]).to.deep.equal([1100, 733]);
    } finally {
      await custom.app.stop();
    }
    const flat = await startUploadApp(dialect, { responsiveDimensions: false });
    try {
      const [image] = (await multipart(flat.app, '/api/upload', [file(await png(1100, 150), 'b.png', 'image/png')], flat.token)).body;
      expect(Object.keys(image.formats)).to.deep.equal(['thumbnail']);
    } finally {
      await flat.app.stop();
    }
  });
});

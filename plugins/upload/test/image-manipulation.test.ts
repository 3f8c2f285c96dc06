/**
 * The image-manipulation service (`plugin::upload.image-manipulation`) as
 * Strapi plugins and apps change it, over real uploads: an app's register
 * replacing `generateThumbnail` (no thumbnail made or stored), and an
 * extension (`src/extensions/upload/strapi-server.js`) wrapping the service
 * factory so `generateResponsiveFormats` adds a format written Strapi's way
 * (a file in `tmpWorkingDirectory`, with `getStream`), stored and answered,
 * its folder removed after. Both databases.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, png, startUploadApp, storedFiles, type UploadApp } from './fixture';

const NO_THUMBNAIL_APP = `
module.exports = {
  register({ strapi }) {
    strapi.plugin('upload').service('image-manipulation').generateThumbnail = async () => null;
  },
};
`;

const SQUARE_EXTENSION = `
const fs = require('fs');
const path = require('path');
module.exports = (plugin) => {
  const original = plugin.services['image-manipulation'];
  plugin.services['image-manipulation'] = (context) => {
    const service = original(context);
    return {
      ...service,
      async generateResponsiveFormats(file) {
        const formats = await service.generateResponsiveFormats(file);
        const filepath = path.join(file.tmpWorkingDirectory, 'square_' + file.hash);
        fs.copyFileSync(file.filepath, filepath);
        globalThis.__imageManipulationWorkDirs = [...(globalThis.__imageManipulationWorkDirs || []), file.tmpWorkingDirectory];
        const square = { name: 'square_' + file.name, hash: 'square_' + file.hash, ext: file.ext, mime: file.mime, path: null, width: 42, height: 42, filepath, getStream: () => fs.createReadStream(filepath) };
        return [...formats, { key: 'square', file: square }];
      },
    };
  };
  return plugin;
};
`;

const STRAPI_FUNCTIONS = [
  'isImage', 'isSupportedImage', 'isFaultyImage', 'isOptimizableImage', 'isResizableImage', 'getDimensions',
  'generateThumbnail', 'generateResponsiveFormats', 'optimize', 'resizeFileTo',
];

async function served(ctx: UploadApp, url: string): Promise<Buffer> {
  const response = await fetch(`${ctx.app.url}${url}`);
  expect(response.status).to.equal(200);
  return Buffer.from(await response.arrayBuffer());
}

const workDirs = (): string[] => (globalThis as { __imageManipulationWorkDirs?: string[] }).__imageManipulationWorkDirs ?? [];

eachDatabase('upload: image-manipulation service replaced by the app', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, {}, [], {}, { 'src/index.js': NO_THUMBNAIL_APP });
  });
  after(() => ctx?.app.stop());

  it("has Strapi's functions, and a generateThumbnail replaced in register makes no thumbnail: the other formats stay", async () => {
    const service = ctx.app.app.plugin('upload')!.service('image-manipulation');
    for (const name of STRAPI_FUNCTIONS) expect(typeof Reflect.get(service, name), name).to.equal('function');
    const response = await multipart(ctx.app, '/api/upload', [file(await png(1100, 150), 'wide.png', 'image/png')], ctx.token);
    expect(response.status).to.equal(200);
    const [image] = response.body;
    expect(image).to.deep.include({ width: 1100, height: 150, mime: 'image/png' });
    expect(Object.keys(image.formats)).to.deep.equal(['large', 'medium', 'small']);
    expect(storedFiles(ctx.uploadsDir).filter((name) => name.includes(image.hash))).to.deep.equal(
      [`large_${image.hash}.png`, `medium_${image.hash}.png`, `small_${image.hash}.png`, `${image.hash}.png`],
    );
  });
});

eachDatabase('upload: image-manipulation service wrapped by an extension', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, {}, [], {}, { 'src/extensions/upload/strapi-server.js': SQUARE_EXTENSION });
  });
  after(() => ctx?.app.stop());

  it('a format its generateResponsiveFormats writes to tmpWorkingDirectory is stored and answered; the folder is removed', async () => {
    const bytes = await png(1200, 800);
    const seen = workDirs().length;
    const response = await multipart(ctx.app, '/api/upload', [file(bytes, 'wide.png', 'image/png')], ctx.token);
    expect(response.status).to.equal(200);
    const [image] = response.body;
    expect(Object.keys(image.formats)).to.deep.equal(['thumbnail', 'large', 'medium', 'small', 'square']);
    expect(image.formats.square).to.deep.equal({
      name: 'square_wide.png', hash: `square_${image.hash}`, ext: '.png', mime: 'image/png', path: null, width: 42, height: 42,
      size: Math.round(bytes.length / 10) / 100, sizeInBytes: bytes.length, url: `/uploads/square_${image.hash}.png`,
    });
    expect((await served(ctx, image.formats.square.url)).equals(bytes)).to.equal(true);
    expect(image.formats.thumbnail).to.deep.include({ width: 234, height: 156 });
    const dirs = workDirs().slice(seen);
    expect(dirs).to.have.length(1);
    expect(fs.existsSync(dirs[0]!)).to.equal(false);
  });
});

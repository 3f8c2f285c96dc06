/**
 * strapi-plugin-responsive-image replaces the upload's image-manipulation
 * service through `src/extensions/upload/strapi-server.js`, as its README
 * says: it takes Strapi's factory from
 * `require('@strapi/plugin-upload/strapi-server')`, calls it bare, spreads it
 * into its own service and replaces `generateResponsiveFormats` with sharp
 * pipelines written for Strapi (files in `tmpWorkingDirectory`, handed back
 * with `getStream`): the formats of its settings (its own core store row,
 * which its bootstrap fills), each optionally converted and doubled (`x2`),
 * made only while the upload's `responsiveDimensions` setting (Strapi's
 * `getSettings()`) is on.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import type { TestApp } from '@tessera/testing';
import type { EcosystemSuite } from './article-app';

/** A Strapi app has these through @strapi/plugin-upload (sharp, mime-types) and @strapi/strapi (@strapi/utils). */
const STRAPI_UPLOAD_DEPENDENCIES = { sharp: '0.33.5', '@strapi/utils': '4.26.2', 'mime-types': '2.1.35' };

type FileAnswer = Record<string, any>;

async function image(width: number, height: number, format: 'png' | 'webp'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })[format]().toBuffer();
}

async function upload(app: TestApp, bytes: Buffer, name: string, type: string): Promise<FileAnswer> {
  const token = await app.fullAccessToken();
  const form = new FormData();
  form.append('files', new Blob([bytes], { type }), name);
  const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as FileAnswer[];
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return body[0];
}

/** Each format as `key → [width, height, mime, ext]`, checked against the bytes served at its url. */
async function formatsOf(app: TestApp, file: FileAnswer): Promise<Record<string, [number, number, string, string]>> {
  const out: Record<string, [number, number, string, string]> = {};
  for (const [key, format] of Object.entries(file.formats as Record<string, FileAnswer>)) {
    const served = await fetch(`${app.url}${format.url}`);
    expect(served.status, format.url).to.equal(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height, `image/${meta.format}`], key).to.deep.equal([format.width, format.height, format.mime]);
    expect(format.url, key).to.equal(`/uploads/${format.hash}${format.ext}`);
    out[key] = [format.width, format.height, format.mime, format.ext];
  }
  return out;
}

export const RESPONSIVE_IMAGE: EcosystemSuite = {
  title: 'strapi-plugin-responsive-image@1.2.0',
  packages: { 'strapi-plugin-responsive-image': '1.2.0', ...STRAPI_UPLOAD_DEPENDENCIES },
  files: {
    'config/plugins.js': `module.exports = () => ({ upload: { enabled: true } });\n`,
    // Its README's extension, verbatim.
    'src/extensions/upload/strapi-server.js': `const imageManipulation = require("strapi-plugin-responsive-image/server/services/image-manipulation");

module.exports = (plugin) => {
  plugin.services["image-manipulation"] = imageManipulation;

  return plugin;
};
`,
  },
  tests: {
    "makes the formats of its default settings, stored by its bootstrap, beside the upload's thumbnail": async (app) => {
      const stored = await app.app.plugin('responsive-image')!.service<{ getSettings(): Promise<FileAnswer> }>('responsive-image')!.getSettings();
      expect(stored.formats.map((format: FileAnswer) => [format.name, format.width])).to.deep.equal([['large', 1000], ['medium', 750], ['small', 500]]);
      const file = await upload(app, await image(1200, 800, 'png'), 'wide.png', 'image/png');
      expect(file).to.deep.include({ name: 'wide.png', width: 1200, height: 800, mime: 'image/png', ext: '.png' });
      expect(await formatsOf(app, file)).to.deep.equal({
        thumbnail: [234, 156, 'image/png', '.png'],
        large: [1000, 667, 'image/png', '.png'],
        medium: [750, 500, 'image/png', '.png'],
        small: [500, 333, 'image/png', '.png'],
      });
      expect(file.formats.large).to.deep.include({ name: 'large_wide.png', hash: `large_${file.hash}` });
    },
    'its settings change the formats: converted, cropped to both sides, doubled with x2': async (app) => {
      const service = app.app.plugin('responsive-image')!.service<{ setSettings(value: unknown): Promise<unknown> }>('responsive-image')!;
      await service.setSettings({
        formats: [{ name: 'hero', width: 400, height: 300, fit: 'cover', position: 'centre', withoutEnlargement: false, convertToFormat: 'webp', x2: true }],
        quality: 70,
        progressive: true,
      });
      const file = await upload(app, await image(1200, 800, 'png'), 'wide.png', 'image/png');
      expect(await formatsOf(app, file)).to.deep.equal({
        thumbnail: [234, 156, 'image/png', '.png'],
        hero_x2: [800, 600, 'image/webp', '.webp'],
        hero: [400, 300, 'image/webp', '.webp'],
      });
      expect(file.formats.hero_x2).to.deep.include({ name: 'hero_x2_wide.png', hash: `hero_x2_${file.hash}` });
    },
    "the upload's responsiveDimensions setting (getSettings) turns its formats off": async (app) => {
      const settings = app.app.plugin('upload')!.service('upload');
      await settings.setSettings({ sizeOptimization: true, responsiveDimensions: false, autoOrientation: false });
      const file = await upload(app, await image(1200, 800, 'png'), 'wide.png', 'image/png');
      expect(Object.keys(file.formats)).to.deep.equal(['thumbnail']);
      await settings.setSettings({ sizeOptimization: true, responsiveDimensions: true, autoOrientation: false });
    },
  },
};

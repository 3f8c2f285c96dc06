/**
 * strapi-blurhash: its register adds a `blurhash` text attribute to the
 * upload's file type, and its `strapi.db.lifecycles` subscriber, before each
 * file row is written, fetches the stored image back from the server's own
 * URL (`getAbsoluteServerUrl(strapi.config)` of @strapi/utils, then
 * `/uploads/…`) and encodes it with sharp and blurhash. With
 * `forceRegenerateOnUpdate`, an update of the row makes it again.
 *
 * 1.2.4 is its last release on sharp; 1.3.0 (the last for v4) requires
 * `canvas`, which it does not declare and which builds only in an install
 * script.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import type { TestApp } from '@tessera/testing';
import type { EcosystemSuite } from './article-app';

async function upload(app: TestApp, bytes: Buffer, name: string, type: string): Promise<Record<string, any>> {
  const token = await app.fullAccessToken();
  const form = new FormData();
  form.append('files', new Blob([bytes], { type }), name);
  const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Array<Record<string, any>>;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return body[0];
}

/** blurhash's own decoder, from the app's installed packages (the one the plugin encodes with). */
function decoder(app: TestApp): (hash: string, width: number, height: number) => Uint8ClampedArray {
  const blurhash = createRequire(path.join(app.dir, 'package.json'))('blurhash') as { decode: (hash: string, width: number, height: number) => Uint8ClampedArray };
  return blurhash.decode;
}

/** A 64×64 image, left half red, right half blue. */
function halves(): Promise<Buffer> {
  const pixels = Buffer.alloc(64 * 64 * 3);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) pixels.set(x < 32 ? [255, 0, 0] : [0, 0, 255], (y * 64 + x) * 3);
  return sharp(pixels, { raw: { width: 64, height: 64, channels: 3 } }).png().toBuffer();
}

export const BLURHASH: EcosystemSuite = {
  title: 'strapi-blurhash@1.2.4',
  // @strapi/utils is its peer (getAbsoluteServerUrl); sharp is its dependency, at the version other cases pin.
  packages: { 'strapi-blurhash': '1.2.4', '@strapi/utils': '4.26.2', sharp: '0.33.5' },
  files: {
    // Its README's configuration.
    'config/plugins.js': `module.exports = {
  upload: { enabled: true },
  'strapi-blurhash': { enabled: true, config: { regenerateOnUpdate: true, forceRegenerateOnUpdate: true } },
};
`,
  },
  tests: {
    "fills the file's blurhash with the image fetched back from the server; none for a text file": async (app) => {
      const file = await upload(app, await halves(), 'halves.png', 'image/png');
      // 4×4 components: size, maximum, DC (4) and 15 AC of 2 characters each.
      expect(file.blurhash).to.be.a('string').with.length(36);
      // The hash decodes to the picture: red on the left, blue on the right.
      const pixels = decoder(app)(file.blurhash, 8, 8);
      const at = (x: number, y: number) => Array.from(pixels.slice((y * 8 + x) * 4, (y * 8 + x) * 4 + 3));
      const [leftRed, , leftBlue] = at(0, 4);
      const [rightRed, , rightBlue] = at(7, 4);
      expect(leftRed).to.be.greaterThan(leftBlue);
      expect(rightBlue).to.be.greaterThan(rightRed);
      const row = await app.app.db.query('plugin::upload.file').findOne({ where: { id: file.id } });
      expect(row?.blurhash).to.equal(file.blurhash);
      const read = await app.get(`/api/upload/files/${file.id}`, { token: await app.fullAccessToken() });
      expect(read.body.blurhash).to.equal(file.blurhash);
      const note = await upload(app, Buffer.from('plain words'), 'note.txt', 'text/plain');
      expect(note.blurhash).to.equal(null);
    },
    'makes it again when the row is updated (forceRegenerateOnUpdate)': async (app) => {
      const file = await upload(app, await halves(), 'halves.png', 'image/png');
      await app.app.db.query('plugin::upload.file').update({ where: { id: file.id }, data: { blurhash: 'stale' } });
      const row = await app.app.db.query('plugin::upload.file').findOne({ where: { id: file.id } });
      expect(row?.blurhash).to.equal(file.blurhash);
    },
  },
};

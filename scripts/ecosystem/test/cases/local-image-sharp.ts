/**
 * strapi-plugin-local-image-sharp: its register mounts a @koa/router with
 * `strapi.server.use(router.routes())` on `/uploads/(.*)`, where ipx (over
 * sharp) answers an uploaded image transformed by the modifiers in the path
 * (`/uploads/w_300,f_webp/<file>`) or the query (`?w=120&format=jpeg`), with
 * its ETag, Last-Modified and Cache-Control headers, a 304 for a
 * matching If-None-Match, and a copy in its `cacheDir` served on later
 * requests. Without modifiers it passes the request on, and the upload
 * plugin serves the file as stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import type { TestApp } from '@tessera/testing';
import type { EcosystemSuite } from './article-app';

async function uploadImage(app: TestApp): Promise<Record<string, any>> {
  const token = await app.fullAccessToken();
  const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();
  const form = new FormData();
  form.append('files', new Blob([bytes], { type: 'image/png' }), 'sky.png');
  const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Array<Record<string, any>>;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return body[0];
}

async function imageOf(response: Response): Promise<[number | undefined, number | undefined, string | undefined]> {
  const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
  return [meta.width, meta.height, meta.format];
}

/** Where the app's config puts its cache: beside the app, outside `public` (the plugin refuses a cache inside it). */
const cacheDirOf = (app: TestApp) => path.join(app.dir, '.image-cache');

/** The cache file holding `bytes` (the plugin writes its cache after answering, without waiting), or undefined. */
async function cachedCopy(dir: string, bytes: Buffer): Promise<string | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.raw')) : [];
    const found = files.map((name) => path.join(dir, name)).find((file) => fs.readFileSync(file).equals(bytes));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

export const LOCAL_IMAGE_SHARP: EcosystemSuite = {
  title: 'strapi-plugin-local-image-sharp@1.7.0',
  // yup is its peer; a Strapi app has it through @strapi/utils.
  packages: { 'strapi-plugin-local-image-sharp': '1.7.0', yup: '0.32.9', sharp: '0.33.5' },
  // ipx 0.9's sharp (^0.30.7) gets its binary only from an install script; the app's sharp runs ipx unchanged.
  overrides: { ipx: { sharp: '0.33.5' } },
  files: {
    'config/plugins.js': `const path = require('path');
module.exports = () => ({
  upload: { enabled: true },
  'local-image-sharp': { config: { cacheDir: path.join(__dirname, '..', '.image-cache'), maxAge: 600 } },
});
`,
  },
  tests: {
    'answers an uploaded image resized and converted by the modifiers in its path, with caching headers': async (app) => {
      const file = await uploadImage(app);
      const response = await fetch(`${app.url}/uploads/w_300,f_webp/${file.hash}${file.ext}`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('image/webp');
      // ipx's local source says 300 s, which its middleware prefers to the configured maxAge.
      expect(response.headers.get('cache-control')).to.equal('max-age=300, public, s-maxage=300');
      expect(response.headers.get('etag')).to.match(/^"[0-9a-f]+-[A-Za-z0-9+/]+"$/);
      expect(response.headers.get('last-modified')).to.match(/^\d+$/);
      expect(await imageOf(response)).to.deep.equal([300, 200, 'webp']);
    },
    'takes the modifiers from the query too, and answers 304 to a matching If-None-Match': async (app) => {
      const file = await uploadImage(app);
      const url = `${app.url}/uploads/${file.hash}${file.ext}?w=120&format=jpeg`;
      const response = await fetch(url);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('image/jpeg');
      const etag = response.headers.get('etag')!;
      expect(await imageOf(response)).to.deep.equal([120, 80, 'jpeg']);
      const again = await fetch(url, { headers: { 'if-none-match': etag } });
      expect(again.status).to.equal(304);
      expect(again.headers.get('etag')).to.equal(etag);
    },
    'keeps each transformed image in its cacheDir and answers later requests from there': async (app) => {
      const file = await uploadImage(app);
      const url = `${app.url}/uploads/w_64/${file.hash}${file.ext}`;
      const first = await fetch(url);
      const firstBytes = Buffer.from(await first.arrayBuffer());
      const cached = await cachedCopy(cacheDirOf(app), firstBytes);
      expect(cached, 'the first answer is cached').to.be.a('string');
      expect(fs.readFileSync(cached!.replace(/\.raw$/, '.mime'), 'utf8')).to.equal('image/png');
      // The cached copy is what is answered: replace it and the next answer is the replacement, with the cached
      // ETag and the configured maxAge (a fresh answer takes ipx's own, 300 s, for a local file).
      const marker = await sharp({ create: { width: 7, height: 5, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
      fs.writeFileSync(cached!, marker);
      const second = await fetch(url);
      expect(second.status).to.equal(200);
      expect(second.headers.get('etag')).to.equal(first.headers.get('etag'));
      expect(second.headers.get('cache-control')).to.equal('max-age=600, public, s-maxage=600');
      expect(await imageOf(second)).to.deep.equal([7, 5, 'png']);
    },
    'passes a request without modifiers on: the upload plugin serves the file as stored; a missing file is a 404': async (app) => {
      const file = await uploadImage(app);
      const stored = await fetch(`${app.url}${file.url}`);
      expect(stored.status).to.equal(200);
      expect(stored.headers.get('content-type')).to.equal('image/png');
      expect(stored.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(await imageOf(stored)).to.deep.equal([1200, 800, 'png']);
      expect((await fetch(`${app.url}/uploads/w_100/missing.png`)).status).to.equal(404);
    },
  },
};

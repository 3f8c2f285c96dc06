/**
 * Each image Tessera makes is encoded as Strapi 4.26.2's own
 * image-manipulation service encodes it, byte for byte. Strapi's service
 * (`@strapi/plugin-upload/server/services/image-manipulation.js`, installed
 * from npm) runs on the same photo-like JPEG and PNG, with `strapi` the
 * Tessera app (its config and upload settings); Tessera's upload answers
 * over HTTP. (Tessera once wrote progressive JPEGs where Strapi writes
 * baseline ones: every format cut from such an original decodes in full,
 * about ten times the work.)
 * The database plays no part here: SQLite only.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { file, multipart, png, startUploadApp, type UploadApp } from './fixture';

interface StrapiFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  filepath: string;
  tmpWorkingDirectory: string;
  getStream(): NodeJS.ReadableStream;
}
interface StrapiImageService {
  optimize(file: StrapiFile): Promise<StrapiFile>;
  generateThumbnail(file: StrapiFile): Promise<StrapiFile | null>;
  generateResponsiveFormats(file: StrapiFile): Promise<Array<{ key: string; file: StrapiFile } | undefined>>;
}

/**
 * Strapi's service (not among the package's exports: found from its package.json, the way in the kernel never
 * answers for it, as it answers `…/strapi-server` with Tessera's upload plugin), a factory of plain
 * functions reading the global `strapi`. Its own sharp (0.32, a native build npm leaves to an install script) is
 * given the sharp Tessera runs: the same libvips on both sides, so what differs is only what each asks of it, and
 * the bytes compare exactly.
 */
const STRAPI_SERVICE = path.join(path.dirname(require.resolve('@strapi/plugin-upload/package.json')), 'server/services/image-manipulation.js');
require('sharp');
require.cache[require.resolve('sharp', { paths: [path.dirname(STRAPI_SERVICE)] })] = require.cache[require.resolve('sharp')];
// eslint-disable-next-line @typescript-eslint/no-require-imports
const strapiImages = (require(STRAPI_SERVICE) as () => StrapiImageService)();

/** What a file is (its bytes compared by length and digest; what sharp reads of it, to say how they differ). */
async function kind(bytes: Buffer): Promise<Record<string, unknown>> {
  const meta = await sharp(bytes).metadata();
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return { format: meta.format, width: meta.width, height: meta.height, progressive: meta.isProgressive === true, palette: meta.isPalette === true, bytes: bytes.length, digest };
}

async function photo(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).blur(1.5).jpeg({ quality: 92 }).toBuffer();
}

/** Strapi's service over `bytes`: the optimised original, then the thumbnail and formats cut from it (its upload's order). */
async function strapiMakes(bytes: Buffer, name: string, mime: string): Promise<Record<string, Record<string, unknown>>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strapi-images-'));
  try {
    const filepath = path.join(dir, name);
    fs.writeFileSync(filepath, bytes);
    const original: StrapiFile = { name, hash: 'h', ext: path.extname(name), mime, filepath, tmpWorkingDirectory: dir, getStream: () => fs.createReadStream(filepath) };
    const optimised = await strapiImages.optimize(original);
    const made: Record<string, Record<string, unknown>> = { original: await kind(fs.readFileSync(optimised.filepath)) };
    const thumbnail = await strapiImages.generateThumbnail(optimised);
    if (thumbnail) made.thumbnail = await kind(fs.readFileSync(path.join(dir, thumbnail.hash)));
    for (const format of await strapiImages.generateResponsiveFormats(optimised)) if (format) made[format.key] = await kind(fs.readFileSync(path.join(dir, format.file.hash)));
    return made;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function served(ctx: UploadApp, url: string): Promise<Buffer> {
  const response = await fetch(`${ctx.app.url}${url}`);
  expect(response.status).to.equal(200);
  return Buffer.from(await response.arrayBuffer());
}

async function tesseraMakes(ctx: UploadApp, bytes: Buffer, name: string, mime: string): Promise<Record<string, Record<string, unknown>>> {
  const response = await multipart(ctx.app, '/api/upload', [file(bytes, name, mime)], ctx.token);
  expect(response.status).to.equal(200);
  const [image] = response.body as Array<{ url: string; formats: Record<string, { url: string }> }>;
  const made: Record<string, Record<string, unknown>> = { original: await kind(await served(ctx, image!.url)) };
  for (const [key, format] of Object.entries(image!.formats)) made[key] = await kind(await served(ctx, format.url));
  return made;
}

describe('upload: images encoded as Strapi 4.26.2’s image-manipulation service encodes them [sqlite]', () => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp('sqlite');
  });
  after(() => ctx?.app.stop());

  it('a 2400×1600 photo (JPEG): the optimised original and every format are baseline JPEGs like Strapi’s', async function () {
    this.timeout(60_000);
    const bytes = await photo(2400, 1600);
    const strapi = await strapiMakes(bytes, 'photo.jpg', 'image/jpeg');
    expect(Object.keys(strapi)).to.deep.equal(['original', 'thumbnail', 'large', 'medium', 'small']);
    expect(strapi.large).to.deep.include({ format: 'jpeg', progressive: false });
    expect(await tesseraMakes(ctx, bytes, 'photo.jpg', 'image/jpeg')).to.deep.equal(strapi);
  });

  it('an 800×600 PNG: the palette original and the formats in sharp’s default PNG, like Strapi’s', async function () {
    this.timeout(60_000);
    const bytes = await png(800, 600);
    const strapi = await strapiMakes(bytes, 'wide.png', 'image/png');
    expect(strapi.original).to.deep.include({ format: 'png', palette: true });
    expect(await tesseraMakes(ctx, bytes, 'wide.png', 'image/png')).to.deep.equal(strapi);
  });
});

/**
 * Issue 36, finding 6: a 292 KB PNG of 9,999 × 9,999 pixels cost 29 s and
 * 165 MB to make formats of (the decoder's cap was 100 M pixels). An image of
 * more pixels than `imagePixelLimit` (25 M by default) is now stored as sent,
 * measured from its header, without formats or re-encoding, and a log line
 * says why; the limit is configurable. Nothing here measures time: what shows
 * the bound is that no format is made (every format decodes the whole image).
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { bootError, eachDatabase } from '@tessera/testing';
import restPlugin from '@tessera/plugin-rest';
import uploadPlugin from '../src';
import { file, multipart, png, startUploadApp, type UploadApp } from './fixture';

/** A flat PNG: a few hundred kilobytes however many pixels, as in the review (the pixels, not the bytes, cost). */
function flatPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toBuffer();
}

/** Runs `work` while collecting the app's warnings. */
async function warnings(ctx: UploadApp, work: () => Promise<void>): Promise<string[]> {
  const log = ctx.app.app.log;
  const original = log.warn;
  const lines: string[] = [];
  log.warn = (message: string) => void lines.push(message);
  try {
    await work();
  } finally {
    log.warn = original;
  }
  return lines;
}

eachDatabase('upload: images over the pixel limit get no formats (issue 36, finding 6)', (dialect) => {
  describe('the default limit (25 M pixels)', () => {
    let ctx: UploadApp;
    before(async () => {
      ctx = await startUploadApp(dialect);
    });
    after(() => ctx?.app.stop());

    it('stores an image of 5,001 × 5,000 pixels as sent, with its dimensions, no formats, and says why in the log', async function () {
      const bytes = await flatPng(5001, 5000);
      let answer!: Awaited<ReturnType<typeof multipart>>;
      const lines = await warnings(ctx, async () => {
        answer = await multipart(ctx.app, '/api/upload', [file(bytes, 'huge.png', 'image/png')], ctx.token);
      });
      expect(answer.status).to.equal(200);
      const [stored] = answer.body;
      expect(stored).to.deep.include({ mime: 'image/png', width: 5001, height: 5000, formats: null, size: Math.round((bytes.length / 1000) * 100) / 100 });
      const served = Buffer.from(await (await fetch(`${ctx.app.url}${stored.url}`)).arrayBuffer());
      expect(served.equals(bytes), 'the bytes as sent (not re-encoded)').to.equal(true);
      expect(lines).to.deep.equal(['upload: huge.png is 5001 × 5000 pixels, over imagePixelLimit (25000000): stored as sent, without formats']);
    });

    it('still makes the formats of an image under it', async () => {
      const [stored] = (await multipart(ctx.app, '/api/upload', [file(await png(1100, 150), 'photo.png', 'image/png')], ctx.token)).body;
      expect(Object.keys(stored.formats).sort()).to.deep.equal(['large', 'medium', 'small', 'thumbnail']);
    });
  });

  describe('a configured limit', () => {
    let ctx: UploadApp;
    before(async () => {
      ctx = await startUploadApp(dialect, { imagePixelLimit: 100_000 });
    });
    after(() => ctx?.app.stop());

    it('applies: 400 × 300 (120,000 pixels) gets no formats, 300 × 300 (90,000) gets its thumbnail', async () => {
      const upload = async (width: number, height: number) => (await multipart(ctx.app, '/api/upload', [file(await png(width, height), `${width}.png`, 'image/png')], ctx.token)).body[0];
      expect(await upload(400, 300)).to.deep.include({ width: 400, height: 300, formats: null });
      expect(Object.keys((await upload(300, 300)).formats)).to.deep.equal(['thumbnail']);
    });
  });

  it('refuses a limit that is not a positive integer up to the decoder’s 100 M pixels, naming the key', async () => {
    for (const imagePixelLimit of [0, 1.5, '1000', 100_000_001]) {
      const error = await bootError({ dialect, plugins: [restPlugin, uploadPlugin], config: { plugins: { upload: { enabled: true, config: { imagePixelLimit } } } } });
      expect(error.message).to.contain('imagePixelLimit must be a positive integer of at most 100000000 (pixels)');
    }
  });
});

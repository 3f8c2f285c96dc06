/**
 * The S3-compatible provider against a real S3-protocol server (s3rver on a
 * temp folder and a free port), everything over real HTTP: upload with its
 * formats, public URLs, rootPath, attachment for markup, delete, and a
 * failed upload (missing bucket) that writes nothing. Both databases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import S3rver from 's3rver';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, png, startUploadApp, type UploadApp } from './fixture';

const BUCKET = 'tessera-media';

function s3Config(endpoint: string, bucket = BUCKET) {
  return {
    provider: 'aws-s3',
    providerOptions: {
      rootPath: 'media',
      s3Options: {
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        params: { Bucket: bucket },
      },
    },
  };
}

eachDatabase('upload: S3-compatible provider (s3rver)', (dialect) => {
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  let ctx: UploadApp;
  before(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-s3rver-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    ctx = await startUploadApp(dialect, s3Config(endpoint));
  });
  after(async () => {
    await ctx?.app.stop();
    await server?.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('uploads to the bucket under rootPath; the row has the public URL and provider aws-s3', async () => {
    const response = await multipart(ctx.app, '/api/upload', [file('stored in s3', 'remote.txt', 'text/plain')], ctx.token);
    expect(response.status).to.equal(200);
    const [stored] = response.body;
    expect(stored).to.deep.include({ provider: 'aws-s3', mime: 'text/plain', ext: '.txt', provider_metadata: null });
    expect(stored.url).to.equal(`${endpoint}/${BUCKET}/media/${stored.hash}.txt`);
    const fetched = await fetch(stored.url);
    expect(fetched.status).to.equal(200);
    expect(await fetched.text()).to.equal('stored in s3');
    expect(fetched.headers.get('content-type')).to.equal('text/plain');
    // Nothing is written locally, and /uploads is not served.
    expect(fs.existsSync(path.join(ctx.app.dir, 'public'))).to.equal(false);
    expect((await fetch(`${ctx.app.url}/uploads/${stored.hash}.txt`)).status).to.equal(404);
  });

  it('image formats go to the bucket too; markup objects are attachments', async () => {
    const [image] = (await multipart(ctx.app, '/api/upload', [file(await png(800, 600), 'photo.png', 'image/png')], ctx.token)).body;
    expect(Object.keys(image.formats)).to.deep.equal(['thumbnail', 'medium', 'small']);
    for (const format of Object.values(image.formats) as Array<{ url: string; sizeInBytes: number }>) {
      const fetched = await fetch(format.url);
      expect(fetched.status).to.equal(200);
      expect((await fetched.arrayBuffer()).byteLength).to.equal(format.sizeInBytes);
    }
    const [html] = (await multipart(ctx.app, '/api/upload', [file('<html><script>1</script></html>', 'a.png', 'image/png')], ctx.token)).body;
    const fetched = await fetch(html.url);
    expect(fetched.headers.get('content-type')).to.equal('text/html');
    expect(fetched.headers.get('content-disposition')).to.equal('attachment');
  });

  it('delete removes the object and its formats from the bucket', async () => {
    const [image] = (await multipart(ctx.app, '/api/upload', [file(await png(400, 300), 'bye.png', 'image/png')], ctx.token)).body;
    const urls = [image.url, image.formats.thumbnail.url];
    for (const url of urls) expect((await fetch(url)).status).to.equal(200);
    const response = await ctx.app.delete(`/api/upload/files/${image.id}`, { token: ctx.token });
    expect(response.status).to.equal(200);
    for (const url of urls) expect((await fetch(url)).status).to.equal(404);
  });

  it('a failed upload (the bucket does not exist) is a 500 that writes no row and leaves no object', async () => {
    const broken = await startUploadApp(dialect, s3Config(endpoint, 'no-such-bucket'));
    try {
      const response = await multipart(broken.app, '/api/upload', [file(await png(400, 300), 'lost.png', 'image/png')], broken.token);
      expect(response.status).to.equal(500);
      expect(response.body).to.deep.equal({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
      expect((await broken.app.get('/api/upload/files', { token: broken.token })).body).to.deep.equal([]);
    } finally {
      await broken.app.stop();
    }
  });

  it('a provider without Bucket stops the boot', async () => {
    let error: Error | undefined;
    try {
      const app = await startUploadApp(dialect, { provider: 'aws-s3', providerOptions: { s3Options: { region: 'us-east-1' } } });
      await app.app.stop();
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).to.include('s3Options.params.Bucket');
  });
});

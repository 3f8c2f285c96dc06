/**
 * `@strapi/provider-upload-aws-s3`, the last 4.x release, configured as its
 * README says, against s3rver (a local S3-compatible server on a free port).
 * The package's own code is shown running by its behaviour: it passes the
 * config's `actionOptions.uploadStream` to S3 (here a `Cache-Control`), which
 * Tessera's built-in S3 client does not do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import S3rver from 's3rver';
import type { EcosystemSuite } from './article-app';

const BUCKET = 'ecosystem-media';
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

async function startS3rver(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-eco-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await server.run();
  return {
    env: {
      AWS_ENDPOINT: `http://127.0.0.1:${port}`,
      // The bucket's public address: the package's lib-storage reports a Location without the port for a custom endpoint.
      CDN_URL: `http://127.0.0.1:${port}/${BUCKET}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_ACCESS_SECRET: 'S3RVER',
      AWS_REGION: 'us-east-1',
      AWS_BUCKET: BUCKET,
      CDN_ROOT_PATH: 'media',
      S3RVER_DIRECTORY: directory,
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export const AWS_S3_PROVIDER: EcosystemSuite = {
  title: '@strapi/provider-upload-aws-s3@4.26.2 against a local S3-compatible server',
  packages: { '@strapi/provider-upload-aws-s3': '4.26.2' },
  service: startS3rver,
  files: {
    // The README's "Provider Configuration", plus `endpoint` + `forcePathStyle` (its "S3 compatible services" section).
    'config/plugins.js': `module.exports = ({ env }) => ({
  upload: {
    config: {
      provider: 'aws-s3',
      providerOptions: {
        baseUrl: env('CDN_URL'),
        rootPath: env('CDN_ROOT_PATH'),
        s3Options: {
          credentials: {
            accessKeyId: env('AWS_ACCESS_KEY_ID'),
            secretAccessKey: env('AWS_ACCESS_SECRET'),
          },
          region: env('AWS_REGION'),
          endpoint: env('AWS_ENDPOINT'),
          forcePathStyle: true,
          params: {
            ACL: env('AWS_ACL', 'public-read'),
            signedUrlExpires: env('AWS_SIGNED_URL_EXPIRES', 15 * 60),
            Bucket: env('AWS_BUCKET'),
          },
        },
      },
      actionOptions: {
        upload: { CacheControl: '${CACHE_CONTROL}' },
        uploadStream: { CacheControl: '${CACHE_CONTROL}' },
        delete: {},
      },
    },
  },
});
`,
  },
  tests: {
    "POST /api/upload stores the file in the bucket through the package, and the row's url points there": async (app, env) => {
      const token = await app.fullAccessToken();
      const form = new FormData();
      form.append('files', new Blob(['bytes in the bucket'], { type: 'text/plain' }), 'note.txt');
      const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as Array<Record<string, any>>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const [stored] = body;
      expect(stored).to.deep.include({ provider: 'aws-s3', mime: 'text/plain', ext: '.txt' });
      expect(stored.url).to.equal(`${env.CDN_URL}/media/${stored.hash}.txt`);
      const row = await app.app.db.query('plugin::upload.file').findOne({ where: { id: stored.id } });
      expect(row?.url).to.equal(stored.url);
      // The object is in the bucket, under rootPath, with the bytes sent.
      const fetched = await fetch(stored.url);
      expect(fetched.status).to.equal(200);
      expect(await fetched.text()).to.equal('bytes in the bucket');
      expect(fetched.headers.get('content-type')).to.equal('text/plain');
      // The npm package's own behaviour: actionOptions reach S3 as request parameters.
      expect(fetched.headers.get('cache-control')).to.equal(CACHE_CONTROL);
      expect(fs.existsSync(path.join(env.S3RVER_DIRECTORY, BUCKET))).to.equal(true);
      // Deleting the file removes the object from the bucket.
      const removed = await fetch(`${app.url}/api/upload/files/${stored.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      expect(removed.status).to.equal(200);
      expect((await fetch(stored.url)).status).to.equal(404);
    },
  },
};

/**
 * strapi-provider-cloudflare-r2, an upload provider named by its package name
 * (Strapi requires `provider` as a module when no `@strapi/provider-upload-<name>`
 * exists), configured as its README says against s3rver, a local
 * S3-compatible server. It talks S3 through aws-sdk v2 (the config spread into
 * `new AWS.S3`), keys objects by the file's `folderPath` and hash, and answers
 * the URL under its `cloudflarePublicAccessUrl`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import S3rver from 's3rver';
import type { CaseService } from '../harness';
import type { EcosystemSuite } from './article-app';

const BUCKET = 'ecosystem-r2';

async function startS3rver(): Promise<CaseService> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-eco-r2-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await server.run();
  return {
    env: {
      CF_ENDPOINT: `http://127.0.0.1:${port}`,
      CF_PUBLIC_ACCESS_URL: `http://127.0.0.1:${port}/${BUCKET}/`,
      CF_ACCESS_KEY_ID: 'S3RVER',
      CF_ACCESS_SECRET: 'S3RVER',
      CF_BUCKET: BUCKET,
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export const CLOUDFLARE_R2_PROVIDER: EcosystemSuite = {
  title: 'strapi-provider-cloudflare-r2@0.3.0 against a local S3-compatible server',
  packages: { 'strapi-provider-cloudflare-r2': '0.3.0' },
  service: startS3rver,
  files: {
    // Its README's configuration; `s3ForcePathStyle` (an aws-sdk option, passed through) since the local server has
    // no per-bucket host names, and `region`, which aws-sdk v2 signs with.
    'config/plugins.js': `module.exports = ({ env }) => ({
  upload: {
    config: {
      provider: 'strapi-provider-cloudflare-r2',
      providerOptions: {
        accessKeyId: env('CF_ACCESS_KEY_ID'),
        secretAccessKey: env('CF_ACCESS_SECRET'),
        endpoint: env('CF_ENDPOINT'),
        params: { Bucket: env('CF_BUCKET') },
        cloudflarePublicAccessUrl: env('CF_PUBLIC_ACCESS_URL'),
        pool: false,
        s3ForcePathStyle: true,
        region: 'auto',
      },
      actionOptions: { upload: {}, uploadStream: { ContentDisposition: 'inline' }, delete: {} },
    },
  },
});
`,
  },
  tests: {
    'POST /api/upload stores the object through aws-sdk v2, the url is under its public access URL, delete removes it': async (app, env) => {
      const token = await app.fullAccessToken();
      const form = new FormData();
      form.append('files', new Blob(['bytes in R2'], { type: 'text/plain' }), 'note.txt');
      const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as Array<Record<string, any>>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const [stored] = body;
      // Strapi names the provider by its config string.
      expect(stored).to.deep.include({ provider: 'strapi-provider-cloudflare-r2', mime: 'text/plain', ext: '.txt' });
      // The root folder ('/') adds no prefix to the key; the trailing slash of the public URL is cut.
      expect(stored.url).to.equal(`${env.CF_PUBLIC_ACCESS_URL}${stored.hash}.txt`);
      const fetched = await fetch(stored.url);
      expect(fetched.status).to.equal(200);
      expect(await fetched.text()).to.equal('bytes in R2');
      expect(fetched.headers.get('content-type')).to.equal('text/plain');
      // Its actionOptions reach S3 as request parameters.
      expect(fetched.headers.get('content-disposition')).to.equal('inline');
      const removed = await fetch(`${app.url}/api/upload/files/${stored.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      expect(removed.status).to.equal(200);
      expect((await fetch(stored.url)).status).to.equal(404);
    },
  },
};

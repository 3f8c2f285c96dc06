/**
 * @strapi/plugin-sentry (the last 4.x release), configured as its README says,
 * with the DSN pointing at a local HTTP server that records what the Sentry
 * SDK sends: an error thrown by app code reaches "Sentry" with Strapi's tags.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

/** What the ingest server received: the request line, then the (un-gzipped) body. */
const received: string[] = [];

async function startIngest(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  received.length = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
      received.push(`${request.method} ${request.url}\n${body.toString('utf8')}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { SENTRY_DSN: `http://publickey@127.0.0.1:${port}/42` },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const FAILING_CONTROLLER = `'use strict';
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::article.article', () => ({
  async find() {
    throw new Error('the database of articles is on fire');
  },
}));
`;

export const SENTRY: EcosystemSuite = {
  title: '@strapi/plugin-sentry@4.26.1 against a local Sentry ingest',
  packages: { '@strapi/plugin-sentry': '4.26.1' },
  service: startIngest,
  files: {
    ...ARTICLE_APP,
    'src/api/article/controllers/article.js': FAILING_CONTROLLER,
    'config/plugins.js': `module.exports = ({ env }) => ({
  sentry: { enabled: true, config: { dsn: env('SENTRY_DSN'), sendMetadata: true } },
});
`,
  },
  tests: {
    'an error thrown by app code is sent to Sentry with the route, and the client gets a 500 envelope': async (app) => {
      const response = await app.get('/api/articles');
      expect(response.status).to.equal(500);
      expect(response.body).to.deep.equal({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
      for (let wait = 0; wait < 50 && received.length === 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).to.have.length(1);
      const [requestLine, body] = received[0].split('\n');
      expect(requestLine).to.equal('POST /api/42/store/');
      const event = JSON.parse(body) as { exception: { values: Array<{ type: string; value: string }> }; tags: Record<string, string>; request: { method: string } };
      expect(event.exception.values.map(({ type, value }) => ({ type, value }))).to.deep.equal([{ type: 'Error', value: 'the database of articles is on fire' }]);
      // Its middleware (strapi.server.use) tags the event from ctx._matchedRoute and strapi.config.info.
      expect(event.tags).to.deep.equal({ transaction: 'GET /api/articles', strapi_version: '4.26.2', method: 'GET' });
      expect(event.request.method).to.equal('GET');
    },
  },
};

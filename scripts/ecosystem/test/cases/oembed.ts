/**
 * strapi-plugin-oembed: its register adds the `oembed` custom field (stored
 * as `text`: the JSON its admin input writes), and its `oembed` service
 * fetches a link's oEmbed data from the provider the link names (YouTube,
 * Vimeo, …) with axios. Its own route is an admin route (not served), so the
 * app exposes the service, as app code may.
 *
 * The providers are fixed https endpoints: axios reaches them here through
 * `HTTPS_PROXY`, a local server that answers as the provider would — the
 * plugin's requests are checked there, offline.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { CaseService } from '../harness';
import type { EcosystemSuite } from './article-app';

/** YouTube's oEmbed answer for one video. */
const VIDEO = {
  title: 'A video',
  author_name: 'Someone',
  type: 'video',
  version: '1.0',
  thumbnail_url: 'https://i.ytimg.com/vi/abc123/hqdefault.jpg',
  html: '<iframe width="200" height="113" src="https://www.youtube.com/embed/abc123"></iframe>',
};

const requested: string[] = [];

async function startProviderProxy(): Promise<CaseService> {
  requested.length = 0;
  const server = http.createServer((req, res) => {
    // A proxied request names the whole target URL.
    const target = new URL(req.url ?? '/');
    requested.push(target.href);
    const known = target.origin === 'https://www.youtube.com' && target.pathname === '/oembed' && target.searchParams.get('url') === 'https://www.youtube.com/watch?v=abc123';
    res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(known ? VIDEO : { error: 'Not Found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    // Both spellings: axios reads the lower-case one first.
    env: { HTTPS_PROXY: proxy, https_proxy: proxy, NO_PROXY: '', no_proxy: '' },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const OEMBED: EcosystemSuite = {
  title: 'strapi-plugin-oembed@1.2.1',
  // axios: it requires it without declaring it (a Strapi app has it); the version another case pins.
  packages: { 'strapi-plugin-oembed': '1.2.1', axios: '0.24.0' },
  service: startProviderProxy,
  files: {
    'config/permissions.js': `module.exports = { public: ['api::video.video.find'] };`,
    'src/api/video/content-types/video/schema.json': {
      kind: 'collectionType',
      collectionName: 'videos',
      info: { singularName: 'video', pluralName: 'videos', displayName: 'Video' },
      options: { draftAndPublish: false },
      // Its README's field.
      attributes: { title: { type: 'string' }, embed: { type: 'customField', customField: 'plugin::oembed.oembed' } },
    },
    'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.server.routes([{
      method: 'GET',
      path: '/api/embed-preview',
      handler: async (ctx) => { ctx.body = await strapi.plugin('oembed').service('oembed').fetch(ctx.query.url); },
      config: { auth: false },
    }]);
  },
};
`,
  },
  tests: {
    'its custom field stores the JSON its input writes, as text': async (app) => {
      const token = await app.fullAccessToken();
      const embed = JSON.stringify({ url: 'https://www.youtube.com/watch?v=abc123', title: 'A video', mime: 'video/youtube' });
      const created = await app.post('/api/videos', { data: { title: 'first', embed } }, { token });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data.attributes.embed).to.equal(embed);
      expect(app.app.contentType('api::video.video')!.attributes.embed).to.deep.include({ type: 'text', customField: 'plugin::oembed.oembed' });
      const listed = await app.get('/api/videos');
      expect(listed.body.data.map((entry: { attributes: { embed: string } }) => entry.attributes.embed)).to.deep.equal([embed]);
      // Text, not JSON: another type is refused.
      const refused = await app.post('/api/videos', { data: { title: 'bad', embed: { url: 'x' } } }, { token });
      expect(refused.status).to.equal(400);
    },
    "its service fetches the link's oEmbed data from the provider the link names": async (app) => {
      const response = await app.get(`/api/embed-preview?url=${encodeURIComponent('https://www.youtube.com/watch?v=abc123')}`);
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({
        url: 'https://www.youtube.com/watch?v=abc123',
        title: 'A video',
        thumbnail: 'https://i.ytimg.com/vi/abc123/hqdefault.jpg',
        mime: 'video/youtube',
        rawData: VIDEO,
      });
      expect(requested).to.include(`https://www.youtube.com/oembed?url=${encodeURIComponent('https://www.youtube.com/watch?v=abc123')}&format=json`);
    },
    "a link its provider does not know, and one of no provider, are answered as its errors": async (app) => {
      const missing = await app.get(`/api/embed-preview?url=${encodeURIComponent('https://youtu.be/nope')}`);
      expect(missing.body).to.deep.equal({ error: "This URL can't be found" });
      const count = requested.length;
      const invalid = await app.get(`/api/embed-preview?url=${encodeURIComponent('https://example.com/video')}`);
      expect(invalid.body).to.deep.equal({ error: 'Invalid URL' });
      expect(requested.length, 'no request for a link of no provider').to.equal(count);
    },
  },
};

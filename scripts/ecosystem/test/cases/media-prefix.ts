/**
 * strapi-plugin-media-prefix: its bootstrap subscribes `afterFindOne` and
 * `afterFindMany` for every model (`strapi.db.lifecycles.subscribe` with no
 * `models`) and replaces each `url` under `/uploads/` in the result, at any
 * depth, with `server.url` + `/uploads/` (read with `strapi.config.get` when
 * its module loads). Reads answer the public URL, and so do writes: Strapi's
 * query engine reads a written entry back through its own `findOne`, hooks
 * included. The row keeps its relative path.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

const article = ARTICLE_APP['src/api/article/content-types/article/schema.json'] as { attributes: object };
const PREFIX = 'https://cdn.example.com/uploads/';

async function upload(app: TestApp, name: string, text: string): Promise<Record<string, any>> {
  const token = await app.fullAccessToken();
  const form = new FormData();
  form.append('files', new Blob([text], { type: 'text/plain' }), name);
  const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Array<Record<string, any>>;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return body[0];
}

export const MEDIA_PREFIX: EcosystemSuite = {
  title: 'strapi-plugin-media-prefix@1.0.6',
  packages: { 'strapi-plugin-media-prefix': '1.0.6' },
  files: {
    ...ARTICLE_APP,
    'config/permissions.js': `module.exports = { public: ['api::article.article.find', 'api::article.article.findOne', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'] };`,
    // Its README: enabled, and the prefix from server.url (no MEDIA_PREFIX in the environment).
    'config/plugins.js': `module.exports = { 'media-prefix': { enabled: true }, upload: { enabled: true } };`,
    'config/server.js': `module.exports = ({ env }) => ({ url: 'https://cdn.example.com' });`,
    'src/api/article/content-types/article/schema.json': {
      ...article,
      attributes: { ...article.attributes, cover: { type: 'media', multiple: false, allowedTypes: ['files', 'images'] }, attachments: { type: 'media', multiple: true } },
    },
  },
  tests: {
    'reads and writes answer upload URLs with the prefix; the row keeps the relative path': async (app) => {
      const file = await upload(app, 'note.txt', 'plain words');
      expect(file.url).to.equal(`${PREFIX}${file.hash}.txt`);
      const row = await app.app.db.query('plugin::upload.file').findOne({ where: { id: file.id } });
      // The hook rewrote this read too: the server-side query runs the same lifecycles.
      expect(row?.url).to.equal(`${PREFIX}${file.hash}.txt`);
      const stored = await app.app.db.connection('files').where({ id: file.id }).first('url');
      expect(stored.url).to.equal(`/uploads/${file.hash}.txt`);
      const one = await app.get(`/api/upload/files/${file.id}`);
      expect(one.status, JSON.stringify(one.body)).to.equal(200);
      expect(one.body.url).to.equal(`${PREFIX}${file.hash}.txt`);
      const all = await app.get('/api/upload/files');
      expect(all.body.map((entry: { url: string }) => entry.url)).to.deep.equal([`${PREFIX}${file.hash}.txt`]);
    },
    'populated media of an entry answer the prefixed URL, at any depth': async (app) => {
      const token = await app.fullAccessToken();
      const cover = await upload(app, 'cover.txt', 'cover');
      const extra = await upload(app, 'extra.txt', 'extra');
      const created = await app.post('/api/articles?populate=*', { data: { title: 'With media', cover: cover.id, attachments: [cover.id, extra.id] } }, { token });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const { id } = created.body.data;
      expect(created.body.data.attributes.cover.data.attributes.url).to.equal(`${PREFIX}${cover.hash}.txt`);
      const one = await app.get(`/api/articles/${id}?populate=*`);
      expect(one.body.data.attributes.cover.data.attributes.url).to.equal(`${PREFIX}${cover.hash}.txt`);
      expect(one.body.data.attributes.attachments.data.map((entry: { attributes: { url: string } }) => entry.attributes.url)).to.deep.equal([
        `${PREFIX}${cover.hash}.txt`,
        `${PREFIX}${extra.hash}.txt`,
      ]);
      const list = await app.get('/api/articles?populate[cover][fields][0]=url&filters[title]=With media');
      expect(list.body.data.map((entry: { attributes: { cover: { data: { attributes: { url: string } } } } }) => entry.attributes.cover.data.attributes.url)).to.deep.equal([`${PREFIX}${cover.hash}.txt`]);
    },
  },
};

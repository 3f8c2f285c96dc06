/**
 * Two plugins whose server side is small, booted together (one-app.ts):
 * - strapi-advanced-uuid: a `uid`-based custom field; its bootstrap finds the
 *   types using it in `strapi.contentTypes` and subscribes `beforeCreate`/
 *   `beforeUpdate` hooks that fill it (UUID v4, or a string of the field's
 *   `uuid-format` regular expression) and refuse a value of another format
 *   with the real `@strapi/utils`' `handleYupError` (a 400 ValidationError).
 * - strapi-plugin-redirects: its public `GET /api/redirects` lists the
 *   redirects its admin panel stores (here written by app code), with
 *   `filters`, `sort` and `pagination` passed to the entity service; its
 *   `/content-types` route sets an unawaited promise as the body.
 */
import { expect } from 'chai';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

const article = ARTICLE_APP['src/api/article/content-types/article/schema.json'] as { attributes: object };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const ADVANCED_UUID: EcosystemSuite = {
  title: 'strapi-advanced-uuid@1.4.2',
  packages: { 'strapi-advanced-uuid': '1.4.2', '@strapi/utils': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    // Its README's field, once with the default format (UUID v4) and once with its `uuid-format` option.
    'src/api/article/content-types/article/schema.json': {
      ...article,
      attributes: {
        ...article.attributes,
        ref: { type: 'customField', customField: 'plugin::strapi-advanced-uuid.uuid' },
        code: { type: 'customField', customField: 'plugin::strapi-advanced-uuid.uuid', options: { 'uuid-format': '[A-Z]{3}-[0-9]{4}' } },
      },
    },
  },
  tests: {
    'fills the field on create in its format, keeps it on update, and refuses another format': async (app) => {
      const token = await app.fullAccessToken();
      const created = await app.post('/api/articles', { data: { title: 'Numbered' } }, { token });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const { id, attributes } = created.body.data;
      expect(attributes.ref).to.match(UUID_V4);
      expect(attributes.code).to.match(/^[A-Z]{3}-[0-9]{4}$/);
      const given = await app.post('/api/articles', { data: { title: 'Given', code: 'ABC-1234' } }, { token });
      expect(given.body.data.attributes.code).to.equal('ABC-1234');
      const updated = await app.put(`/api/articles/${id}`, { data: { title: 'Renamed' } }, { token });
      expect(updated.body.data.attributes).to.include({ title: 'Renamed', ref: attributes.ref, code: attributes.code });
      const refused = await app.post('/api/articles', { data: { title: 'Bad', code: 'abc' } }, { token });
      expect(refused.body).to.deep.equal({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'You have some issues', details: { errors: [{ path: ['code'], message: 'The UUID format is invalid.', name: 'ValidationError' }] } },
      });
      expect((await app.put(`/api/articles/${id}`, { data: { code: 'ABCD-1' } }, { token })).status).to.equal(400);
      expect((await app.get('/api/articles?filters[title]=Bad')).body.data).to.deep.equal([]);
    },
  },
};

export const REDIRECTS: EcosystemSuite = {
  title: 'strapi-plugin-redirects@1.0.4',
  packages: { 'strapi-plugin-redirects': '1.0.4' },
  files: {
    // The redirects its admin panel would save.
    'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    for (const [from, to, type] of [['/old', '/new', 'moved_permanently_301'], ['/gone', '/', 'gone_410'], ['/tmp', '/later', undefined]]) {
      await strapi.entityService.create('plugin::redirects.redirect', { data: { from, to, type } });
    }
  },
};
`,
  },
  tests: {
    'lists its redirects publicly, newest first, with filters and pages': async (app) => {
      const all = await app.get('/api/redirects');
      expect(all.status, JSON.stringify(all.body)).to.equal(200);
      expect(all.body.total).to.equal(3);
      // Its type's default fills the one saved without a type; the entity service answers the scalar fields.
      expect(all.body.redirects.map(({ from, to, type }: Record<string, string>) => ({ from, to, type }))).to.deep.equal([
        { from: '/tmp', to: '/later', type: 'found_302' },
        { from: '/gone', to: '/', type: 'gone_410' },
        { from: '/old', to: '/new', type: 'moved_permanently_301' },
      ]);
      expect(all.body.redirects[0]).to.have.all.keys('id', 'from', 'to', 'type', 'createdAt', 'updatedAt');
      const gone = await app.get('/api/redirects?filters[type][$eq]=gone_410');
      expect(gone.body).to.deep.include({ total: 1 });
      expect(gone.body.redirects.map((redirect: { from: string }) => redirect.from)).to.deep.equal(['/gone']);
      const page = await app.get('/api/redirects?sort=from:asc&pagination[page]=2&pagination[pageSize]=2');
      expect(page.body.total).to.equal(3);
      expect(page.body.redirects.map((redirect: { from: string }) => redirect.from)).to.deep.equal(['/tmp']);
    },
    "its /content-types route answers {} as on Strapi (its unawaited promise), and the server lives on": async (app) => {
      // It reads the content manager's services, admin-side here: the rejection is logged, not a crash.
      const types = await app.get('/api/redirects/content-types');
      expect([types.status, types.text]).to.deep.equal([200, '{}']);
      await new Promise((resolve) => setImmediate(resolve));
      expect((await app.get('/api/redirects')).status).to.equal(200);
    },
  },
};

/**
 * Plugins that act on every request's reads and writes, booted together (see
 * one-app.ts) on one article type that each of them configures:
 * - strapi-plugin-protected-populate: its register writes a route middleware
 *   and its settings into the routes' config; the middleware reads them from
 *   `ctx.state.route` and cuts `fields`/`populate` down to what is allowed.
 * - strapi-plugin-encryptable-field: a custom field stored encrypted by
 *   `beforeCreate`/`beforeUpdate` and decrypted by `afterFindOne`/`afterFindMany`,
 *   which read the caller from `strapi.requestContext`; a write's answer is
 *   decrypted too, since it is read back through the findOne hooks.
 * - strapi-plugin-paper-trail: a global middleware records each REST write of
 *   an opted-in type in its own type, bound to the signed-in user; its type's
 *   relation to Strapi's admin users is left out (no admin panel), and it asks
 *   `strapi.contentType(uid)` whether users-permissions is there.
 * - strapi-plugin-reading-time: a `beforeCreate`/`beforeUpdate` subscriber
 *   writes the reading time of the configured fields into another field.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

const ARTICLE_UID = 'api::article.article';
const article = ARTICLE_APP['src/api/article/content-types/article/schema.json'] as { attributes: object };

/** The one article type all four configure: a body, its reading time, an encrypted field, trails on. */
const APP: Record<string, string | object> = {
  ...ARTICLE_APP,
  'src/api/article/content-types/article/schema.json': {
    ...article,
    pluginOptions: { paperTrail: { enabled: true } },
    attributes: {
      ...article.attributes,
      body: { type: 'richtext' },
      readingTime: { type: 'string' },
      secret: { type: 'customField', customField: 'plugin::encryptable-field.encryptable-field' },
    },
  },
  // The plugin reads its key from the environment when it loads (its README: 32 bytes).
  '.env': 'ENCRYPTION_KEY=0123456789abcdef0123456789abcdef\n',
  'config/permissions.js': `module.exports = {
  public: ['api::article.article.find', 'api::article.article.findOne', 'api::category.category.find', 'api::category.category.findOne'],
  authenticated: ['api::article.article.create', 'api::article.article.update'],
};
`,
};

async function created(app: TestApp, path: string, data: object, token: string): Promise<{ id: number; attributes: Record<string, unknown> }> {
  const response = await app.post(path, { data }, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data;
}

export const PROTECTED_POPULATE: EcosystemSuite = {
  title: 'strapi-plugin-protected-populate@1.3.6',
  packages: { 'strapi-plugin-protected-populate': '1.3.6' },
  files: {
    ...APP,
    // What its admin panel saves: per route, the fields and the populate tree a request may ask for.
    'src/protected-populate/index.json': {
      'GET /api/categories': { fields: ['name'], populate: { articles: { fields: ['title'] } } },
      'GET /api/categories/:id': { fields: ['name'] },
    },
  },
  tests: {
    'answers only the allowed fields and populate, whatever the request asks': async (app) => {
      const token = await app.fullAccessToken();
      const category = await created(app, '/api/categories', { name: 'Guarded' }, token);
      const guarded = await created(app, '/api/articles', { title: 'Inside', slug: 'inside', category: category.id }, token);
      const list = await app.get(`/api/categories?filters[name]=Guarded&populate=*`);
      expect(list.status).to.equal(200);
      expect(list.body.data).to.deep.equal([{ id: category.id, attributes: { name: 'Guarded', articles: { data: [{ id: guarded.id, attributes: { title: 'Inside' } }] } } }]);
      // A field that is not allowed is dropped at every level; the article keeps only its id.
      const narrowed = await app.get(`/api/categories?filters[name]=Guarded&fields[0]=createdAt&populate[articles][fields][0]=slug`);
      expect(narrowed.body.data).to.deep.equal([{ id: category.id, attributes: { articles: { data: [{ id: guarded.id, attributes: {} }] } } }]);
      // Without populate or fields (auto-populate is off): the allowed fields, nothing populated.
      expect((await app.get(`/api/categories?filters[name]=Guarded`)).body.data).to.deep.equal([{ id: category.id, attributes: { name: 'Guarded' } }]);
      // A filter on a field that is not allowed is dropped too (had it applied, nothing would match).
      expect((await app.get('/api/categories?filters[createdAt][$null]=true')).body.data).to.deep.equal([{ id: category.id, attributes: { name: 'Guarded' } }]);
      const one = await app.get(`/api/categories/${category.id}?populate=*`);
      expect(one.body).to.deep.equal({ data: { id: category.id, attributes: { name: 'Guarded' } }, meta: {} });
    },
  },
};

/** The plugin's service: what it stores is `<iv hex>:<cipher hex>`, and it decrypts it back. */
interface Encryption {
  decrypt(value: string): string;
}

export const ENCRYPTABLE_FIELD: EcosystemSuite = {
  title: 'strapi-plugin-encryptable-field@1.1.4',
  packages: { 'strapi-plugin-encryptable-field': '1.1.4' },
  files: APP,
  tests: {
    'stores the field encrypted and answers it decrypted, on writes and reads': async (app) => {
      const token = await app.fullAccessToken();
      const entry = await created(app, '/api/articles', { title: 'Classified', secret: 'the launch code' }, token);
      // A write answers what a read would: the read-back went through the plugin's afterFindOne.
      expect(entry.attributes.secret).to.equal('the launch code');
      const stored = async () => (await app.app.db.connection('articles').where({ id: entry.id }).first('secret')).secret as string;
      const ciphertext = await stored();
      expect(ciphertext).to.match(/^[0-9a-f]{32}:[0-9a-f]{32}$/);
      const encryption = app.app.plugin('encryptable-field')!.service<Encryption>('service')!;
      expect(encryption.decrypt(ciphertext)).to.equal('the launch code');
      expect((await app.get(`/api/articles/${entry.id}`)).body.data.attributes.secret).to.equal('the launch code');
      const listed = await app.get('/api/articles?filters[title]=Classified');
      expect(listed.body.data.map((item: { attributes: { secret: string } }) => item.attributes.secret)).to.deep.equal(['the launch code']);
      const updated = await app.put(`/api/articles/${entry.id}`, { data: { secret: 'a new code' } }, { token });
      expect(updated.body.data.attributes.secret).to.equal('a new code');
      expect(await stored()).to.not.equal(ciphertext);
      expect(encryption.decrypt(await stored())).to.equal('a new code');
    },
  },
};

export const PAPER_TRAIL: EcosystemSuite = {
  title: 'strapi-plugin-paper-trail@0.6.1',
  packages: { 'strapi-plugin-paper-trail': '0.6.1', '@strapi/plugin-users-permissions': '4.26.2' },
  files: APP,
  tests: {
    'records each REST write of an opted-in type as a numbered trail, bound to the signed-in user': async (app) => {
      const registered = await app.post('/api/auth/local/register', { username: 'editor', email: 'editor@example.com', password: 'Passw0rd!' });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      const token = registered.body.jwt;
      const entry = await created(app, '/api/articles', { title: 'Tracked', slug: 'tracked' }, token);
      const update = await app.put(`/api/articles/${entry.id}`, { data: { title: 'Tracked again' } }, { token });
      expect(update.status).to.equal(200);
      const category = await created(app, '/api/categories', { name: 'Not tracked' }, await app.fullAccessToken());
      const trails = (await app.app.entityService.findMany('plugin::paper-trail.trail', {
        filters: { recordId: entry.id, contentType: ARTICLE_UID },
        sort: 'version:asc',
        fields: ['version', 'change', 'content', 'contentType'],
        populate: { users_permissions_user: { fields: ['username'] } },
      })) as Array<Record<string, unknown>>;
      const user = { id: registered.body.user.id, username: 'editor' };
      expect(trails.map(({ id, ...trail }) => trail)).to.deep.equal([
        { version: 1, change: 'CREATE', content: { title: 'Tracked', slug: 'tracked' }, contentType: ARTICLE_UID, users_permissions_user: user },
        { version: 2, change: 'UPDATE', content: { title: 'Tracked again' }, contentType: ARTICLE_UID, users_permissions_user: user },
      ]);
      // Categories have no paperTrail option: nothing recorded for them.
      expect(await app.app.entityService.count('plugin::paper-trail.trail', { filters: { recordId: category.id, contentType: 'api::category.category' } })).to.equal(0);
      // Its type's relation to the admin user is left out: Tessera has no admin users to link.
      expect(app.app.contentType('plugin::paper-trail.trail')!.attributes).to.not.have.property('admin_user');
    },
  },
};

export const READING_TIME: EcosystemSuite = {
  title: 'strapi-plugin-reading-time@1.2.0',
  packages: { 'strapi-plugin-reading-time': '1.2.0' },
  files: {
    ...APP,
    // Its README's configuration: the field to fill and the fields to read.
    'config/plugins.js': `module.exports = { 'reading-time': { enabled: true, config: { contentTypes: { article: { field: 'readingTime', references: ['title', 'body'] } } } } };`,
  },
  tests: {
    'fills the reading time of the referenced fields on create and update': async (app) => {
      const token = await app.fullAccessToken();
      // Title and body together, at 200 words a minute (the reading-time package), rounded up: 600 words, 3 minutes.
      const entry = await created(app, '/api/articles', { title: 'Long read', body: 'word '.repeat(598) }, token);
      expect(entry.attributes.readingTime).to.equal('3 min read');
      const updated = await app.put(`/api/articles/${entry.id}`, { data: { title: 'Short read', body: 'word '.repeat(99) } }, { token });
      expect(updated.body.data.attributes.readingTime).to.equal('1 min read');
      // Stored, not only answered (encryptable-field's read hook adds its field to every read: only this one is looked at).
      expect((await app.app.db.query(ARTICLE_UID).findOne({ where: { id: entry.id }, select: ['readingTime'] }))?.readingTime).to.equal('1 min read');
    },
  },
};

/**
 * The published packages the ecosystem suite runs, each with its documented
 * main behaviour checked over real HTTP. To add one: a case with its pinned
 * packages, the app files its README asks for, and its tests.
 */
import { expect } from 'chai';
import type { App } from '@tessera/core';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './cases/article-app';
import { AWS_S3_PROVIDER } from './cases/upload-aws-s3';
import { CUSTOM_FIELDS, REQUEST_ID, TRANSFORMER } from './cases/plugins';
import { IMPORT_EXPORT } from './cases/import-export';
import { SENTRY } from './cases/sentry';
import { DOCUMENTATION } from './cases/documentation';
import { EMAIL_DESIGNER_SENDMAIL, PASSWORDLESS_NODEMAILER, USERS_PERMISSIONS_MAIL } from './cases/email';
import { MENUS, NAVIGATION } from './cases/menus-navigation';
import { COMMENTS, FUZZY_SEARCH, RATINGS } from './cases/search-comments';
import { CONFIG_SYNC, PUBLISHER, SITEMAP, WEBSITE_BUILDER } from './cases/scheduled';
import { ENCRYPTABLE_FIELD, PAPER_TRAIL, PROTECTED_POPULATE, READING_TIME } from './cases/request-and-lifecycle';
import { oneApp } from './cases/one-app';
import { SOFT_DELETE } from './cases/soft-delete';
import { SOCKET_IO } from './cases/socket-io';
import { EZFORMS } from './cases/forms';
import { SCHEMAS_TO_TS } from './cases/schemas-to-ts';
import { PLACEHOLDER } from './cases/placeholder';
import { ADVANCED_UUID, REDIRECTS } from './cases/uuid-redirects';
import { MIGRATIONS } from './cases/migrations';
import { MEDIA_PREFIX } from './cases/media-prefix';
import { SCHEDULER } from './cases/scheduler';
import { CLOUDFLARE_R2_PROVIDER } from './cases/upload-r2';
import { RESPONSIVE_IMAGE } from './cases/image-formats';
import { LOCAL_IMAGE_SHARP } from './cases/local-image-sharp';
import { OEMBED } from './cases/oembed';
import { BLURHASH } from './cases/blurhash';
import { HEALTH, PROMETHEUS } from './cases/monitoring';
import { GRAPHQL_PLUGINS } from './cases/graphql-plugins';
import { IMAGE_OPTIMIZER } from './cases/image-optimizer';

export { ARTICLE_APP, type EcosystemSuite } from './cases/article-app';

/** Capabilities of the `strapi` object that published plugins call at boot. */
const has = {
  getModel: (app: App) => typeof (app as unknown as { getModel?: unknown }).getModel === 'function',
  adminActions: (app: App) => typeof (app as unknown as { admin?: { services?: { permission?: { actionProvider?: { registerMany?: unknown } } } } }).admin?.services?.permission?.actionProvider?.registerMany === 'function',
  listRoutes: (app: App) => typeof (app.server as unknown as { listRoutes?: unknown }).listRoutes === 'function',
};

async function createArticle(app: TestApp, data: Record<string, unknown>): Promise<Record<string, any>> {
  const token = await app.fullAccessToken();
  const response = await app.post('/api/articles', { data }, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data;
}

/** App code that throws with the real `@strapi/utils` classes, inside a controller made by `@strapi/strapi`'s factory. */
const STRAPI_PACKAGES_CONTROLLER = `'use strict';
const { createCoreController } = require('@strapi/strapi').factories;
const utils = require('@strapi/utils');
const { errors } = utils;

const refusals = {
  validation: () => new errors.ValidationError('Title refused', { field: 'title' }),
  application: () => new errors.ApplicationError('Not now'),
  forbidden: () => new errors.ForbiddenError('Not you'),
  notfound: () => new errors.NotFoundError('No such thing'),
  unauthorized: () => new errors.UnauthorizedError('Who are you?'),
  toolarge: () => new errors.PayloadTooLargeError('Too big'),
  policy: () => new errors.PolicyError('Policy says no', { policy: 'custom' }),
};

module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  async create(ctx) {
    const refuse = refusals[ctx.request.body?.data?.title];
    if (refuse) throw refuse();
    return super.create(ctx);
  },
  async find(ctx) {
    const response = await super.find(ctx);
    // The real package's helpers run too.
    return { ...response, meta: { ...response.meta, utilsVersion: require('@strapi/utils/package.json').version, kebab: utils.isKebabCase('a-b') } };
  },
}));
`;

export const SUITES: EcosystemSuite[] = [
  {
    title: 'the real @strapi/utils and @strapi/strapi installed beside Tessera',
    packages: { '@strapi/utils': '4.26.2', '@strapi/strapi': '4.26.2' },
    files: { ...ARTICLE_APP, 'src/api/article/controllers/article.js': STRAPI_PACKAGES_CONTROLLER },
    tests: {
      "createCoreController comes from the kernel, @strapi/utils is the real one": async (app) => {
        await createArticle(app, { title: 'kept' });
        const response = await app.get('/api/articles');
        expect(response.status).to.equal(200);
        expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['kept']);
        expect(response.body.meta).to.deep.include({ utilsVersion: '4.26.2', kebab: true });
      },
      "errors thrown with the real package's classes answer as Strapi 4.26.2's route chain answers them": async (app) => {
        const token = await app.fullAccessToken();
        const expected: Record<string, [number, string, string, object]> = {
          validation: [400, 'ValidationError', 'Title refused', { field: 'title' }],
          application: [400, 'ApplicationError', 'Not now', {}],
          // Strapi's authorize step wraps the rest of the route: a Forbidden or Unauthorized error (a PolicyError is
          // one) thrown by the handler becomes its bare ctx.forbidden()/ctx.unauthorized() (compose-endpoint, 4.26.2).
          forbidden: [403, 'ForbiddenError', 'Forbidden', {}],
          notfound: [404, 'NotFoundError', 'No such thing', {}],
          unauthorized: [401, 'UnauthorizedError', 'Unauthorized', {}],
          toolarge: [413, 'PayloadTooLargeError', 'Too big', {}],
          policy: [403, 'ForbiddenError', 'Forbidden', {}],
        };
        for (const [title, [status, name, message, details]] of Object.entries(expected)) {
          const response = await app.post('/api/articles', { data: { title } }, { token });
          expect(response.body, title).to.deep.equal({ data: null, error: { status, name, message, details } });
          expect(response.status, title).to.equal(status);
        }
      },
    },
  },
  {
    title: 'strapi-plugin-slugify@2.3.8',
    packages: { 'strapi-plugin-slugify': '2.3.8' },
    files: {
      ...ARTICLE_APP,
      // Its README's configuration, with the count suffix on.
      'config/plugins.js': `module.exports = ({ env }) => ({
  slugify: { enabled: true, config: { contentTypes: { article: { field: 'slug', references: 'title' } }, slugifyWithCount: true } },
});
`,
    },
    tests: {
      'fills the slug on create, and counts repeats in its own slugs table': async (app) => {
        const first = await createArticle(app, { title: 'Hello Tessera World' });
        expect(first.attributes.slug).to.equal('hello-tessera-world');
        const second = await createArticle(app, { title: 'Hello Tessera World' });
        expect(second.attributes.slug).to.equal('hello-tessera-world-2');
        const stored = await app.app.db.query('plugin::slugify.slug').findOne({ where: { slug: 'hello-tessera-world' } });
        expect(stored).to.deep.include({ slug: 'hello-tessera-world', count: 2 });
        // Strapi's table name for the plugin's type, and the plugin is enabled by discovery.
        expect(app.app.contentType('plugin::slugify.slug')!.collectionName).to.equal('slugs');
        expect(app.app.plugin('slugify')).to.equal(app.app.plugin('slugify'));
      },
    },
  },
  {
    title: 'strapi-plugin-rest-cache@4.2.9 with its memory provider',
    packages: { 'strapi-plugin-rest-cache': '4.2.9', 'strapi-provider-rest-cache-memory': '4.2.9' },
    needs: { 'strapi.admin (permission actions)': has.adminActions, 'strapi.server.listRoutes': has.listRoutes },
    files: {
      ...ARTICLE_APP,
      'config/plugins.js': `module.exports = {
  'rest-cache': {
    config: {
      provider: { name: 'memory', options: { max: 32767, maxAge: 3600 } },
      strategy: { enableXCacheHeaders: true, contentTypes: ['api::article.article'] },
    },
  },
};
`,
    },
    tests: {
      'answers X-Cache MISS, then HIT, then MISS after a write': async (app) => {
        await createArticle(app, { title: 'cached' });
        expect((await app.get('/api/articles')).headers.get('x-cache')).to.equal('MISS');
        const hit = await app.get('/api/articles');
        expect(hit.headers.get('x-cache')).to.equal('HIT');
        expect(hit.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['cached']);
        await createArticle(app, { title: 'fresh' });
        const miss = await app.get('/api/articles');
        expect(miss.headers.get('x-cache')).to.equal('MISS');
        expect(miss.body.data).to.have.length(2);
      },
    },
  },
  {
    title: 'strapi-plugin-populate-deep@3.0.1',
    packages: { 'strapi-plugin-populate-deep': '3.0.1' },
    needs: { 'strapi.getModel': has.getModel },
    files: ARTICLE_APP,
    tests: {
      'populates relations and components with ?populate=deep': async (app) => {
        const token = await app.fullAccessToken();
        const category = await app.post('/api/categories', { data: { name: 'News' } }, { token });
        await createArticle(app, { title: 'deep', category: category.body.data.id, seo: { metaTitle: 'Deep SEO' } });
        const plain = await app.get('/api/articles');
        expect(plain.body.data[0].attributes).to.not.have.property('category');
        const deep = await app.get('/api/articles?populate=deep');
        expect(deep.status).to.equal(200);
        const [article] = deep.body.data;
        expect(article.attributes.category.data.attributes.name).to.equal('News');
        expect(article.attributes.seo).to.deep.include({ metaTitle: 'Deep SEO' });
      },
    },
  },
  AWS_S3_PROVIDER,
  TRANSFORMER,
  REQUEST_ID,
  CUSTOM_FIELDS,
  IMPORT_EXPORT,
  DOCUMENTATION,
  SENTRY,
  // Booted together, as an app with several plugins is (one boot per database: the suite's time budget).
  oneApp('menus, navigation, fuzzy-search, comments and ratings in one app', [MENUS, NAVIGATION, FUZZY_SEARCH, COMMENTS, RATINGS]),
  oneApp('sitemap, config-sync and publisher in one app', [SITEMAP, CONFIG_SYNC, PUBLISHER]),
  oneApp('protected-populate, encryptable-field, paper-trail and reading-time in one app', [PROTECTED_POPULATE, ENCRYPTABLE_FIELD, PAPER_TRAIL, READING_TIME]),
  // Alone: it changes every api:: type's deletes and reads.
  SOFT_DELETE,
  WEBSITE_BUILDER,
  PASSWORDLESS_NODEMAILER,
  USERS_PERMISSIONS_MAIL,
  EMAIL_DESIGNER_SENDMAIL,
  SOCKET_IO,
  EZFORMS,
  SCHEMAS_TO_TS,
  PLACEHOLDER,
  oneApp('strapi-advanced-uuid and redirects in one app', [ADVANCED_UUID, REDIRECTS]),
  MIGRATIONS,
  // Alone: it rewrites every read of every model.
  MEDIA_PREFIX,
  SCHEDULER,
  CLOUDFLARE_R2_PROVIDER,
  // Alone: it replaces the upload's image-manipulation service.
  RESPONSIVE_IMAGE,
  // Alone: its middleware answers under /uploads before the upload plugin's route.
  LOCAL_IMAGE_SHARP,
  OEMBED,
  // Alone: it adds an attribute to the upload's file type.
  BLURHASH,
  oneApp('strapi-health-plugin and strapi-prometheus in one app', [HEALTH, PROMETHEUS]),
  GRAPHQL_PLUGINS,
  // Alone: it replaces the upload's image-manipulation service.
  IMAGE_OPTIMIZER,
];

/**
 * More published Strapi v4 server-side plugins, each configured as its README
 * says and checked for its documented main behaviour over real HTTP:
 * - strapi-plugin-transformer: strips the `attributes` and relation `data`
 *   wrappers (route middlewares it adds to `strapi.api[name].routes` at register),
 *   wraps request bodies in `data`, and leaves a request with its ignore header alone.
 * - strapi-plugin-request-id: a global middleware (`plugin::request-id.request-id`
 *   in config/middlewares.js) that sets X-Request-Id and echoes the correlation header.
 * - @strapi/plugin-color-picker, strapi-plugin-country-select, strapi-plugin-multi-select:
 *   custom fields registered with `strapi.customFields.register`, used as
 *   `"type": "customField"` attributes, stored and validated as their base type.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

async function post(app: TestApp, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await app.post(path, body, { token: await app.fullAccessToken() });
  return { status: response.status, body: response.body };
}

export const TRANSFORMER: EcosystemSuite = {
  title: 'strapi-plugin-transformer@3.1.2',
  packages: { 'strapi-plugin-transformer': '3.1.2' },
  files: {
    ...ARTICLE_APP,
    // Its README's sample configuration (the response, request and filter parts).
    'config/plugins.js': `module.exports = ({ env }) => ({
  transformer: {
    enabled: true,
    config: {
      responseTransforms: { removeAttributesKey: true, removeDataKey: true },
      requestTransforms: { wrapBodyWithDataKey: true },
      contentTypeFilter: { mode: 'allow', uids: { 'api::article.article': true, 'api::category.category': { GET: true } } },
    },
  },
});
`,
  },
  tests: {
    'removes the attributes and relation data wrappers, and wraps request bodies in data': async (app) => {
      const category = await app.post('/api/categories', { data: { name: 'News' } }, { token: await app.fullAccessToken() });
      expect(category.status, JSON.stringify(category.body)).to.equal(200);
      // A body without `data`: the plugin wraps it (POST on an allowed type).
      const created = await post(app, '/api/articles', { title: 'Flat', category: category.body.data.id, seo: { metaTitle: 'SEO' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data).to.include({ title: 'Flat' }).and.not.have.property('attributes');
      const list = await app.get('/api/articles?populate=*');
      expect(list.status).to.equal(200);
      const [article] = list.body.data;
      expect(article).to.deep.include({ id: created.body.data.id, title: 'Flat', slug: null });
      expect(article.category).to.deep.include({ id: category.body.data.id, name: 'News' });
      expect(article.category).to.not.have.property('data');
      expect(article.seo).to.deep.include({ metaTitle: 'SEO' });
      expect(list.body.meta.pagination).to.deep.include({ total: 1 });
      // The README's ignore header turns it off for one request.
      const plain = await app.get('/api/articles', { headers: { 'Strapi-Transformer-Ignore': 'true' } });
      expect(plain.body.data[0]).to.deep.include({ id: created.body.data.id }).and.have.nested.property('attributes.title', 'Flat');
    },
  },
};

export const REQUEST_ID: EcosystemSuite = {
  title: 'strapi-plugin-request-id@1.2.0',
  packages: { 'strapi-plugin-request-id': '1.2.0' },
  files: {
    ...ARTICLE_APP,
    'config/plugins.js': `module.exports = ({ env }) => ({ 'request-id': { enabled: true, config: { correlationIdHeader: 'X-Amzn-Trace-Id' } } });`,
    // Strapi's default list with the plugin's middleware at the bottom, as its README says.
    'config/middlewares.js': `module.exports = [
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::logger',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  'plugin::request-id.request-id',
];
`,
  },
  tests: {
    'sets a new X-Request-Id on every request and keeps or makes the correlation id': async (app) => {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      const first = await app.get('/api/articles', { headers: { 'X-Amzn-Trace-Id': 'trace-123' } });
      expect(first.status).to.equal(200);
      expect(first.headers.get('x-amzn-trace-id')).to.equal('trace-123');
      expect(first.headers.get('x-request-id')).to.match(uuid);
      const second = await app.get('/api/articles');
      expect(second.headers.get('x-amzn-trace-id')).to.match(uuid);
      expect(second.headers.get('x-request-id')).to.match(uuid).and.not.equal(first.headers.get('x-request-id'));
    },
  },
};

/** A type with one attribute of each custom field's kind. */
const PALETTE_APP: Record<string, string | object> = {
  'src/api/palette/content-types/palette/schema.json': {
    kind: 'collectionType',
    collectionName: 'palettes',
    info: { singularName: 'palette', pluralName: 'palettes', displayName: 'Palette' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      color: { type: 'customField', customField: 'plugin::color-picker.color', regex: '^#([0-9a-fA-F]{6})$' },
      country: { type: 'customField', customField: 'plugin::country-select.country' },
      tags: { type: 'customField', customField: 'plugin::multi-select.multi-select', options: ['red', 'green', 'blue'] },
    },
  },
};

export const CUSTOM_FIELDS: EcosystemSuite = {
  title: '@strapi/plugin-color-picker@4.26.2, strapi-plugin-country-select@1.0.3, strapi-plugin-multi-select@1.2.3',
  packages: { '@strapi/plugin-color-picker': '4.26.2', 'strapi-plugin-country-select': '1.0.3', 'strapi-plugin-multi-select': '1.2.3' },
  files: PALETTE_APP,
  tests: {
    'their custom fields are stored, answered and validated as their base types': async (app) => {
      expect(app.app.contentType('api::palette.palette')!.attributes).to.deep.include({
        color: { type: 'string', customField: 'plugin::color-picker.color', regex: '^#([0-9a-fA-F]{6})$' },
        country: { type: 'string', customField: 'plugin::country-select.country' },
      });
      const created = await post(app, '/api/palettes', { data: { name: 'Flag', color: '#FF0000', country: 'FR', tags: ['red', 'blue'] } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const read = await app.get(`/api/palettes/${created.body.data.id}`, { token: await app.fullAccessToken() });
      expect(read.body.data.attributes).to.deep.include({ name: 'Flag', color: '#FF0000', country: 'FR', tags: ['red', 'blue'] });
      // The string base type's validation, with the attribute's regex.
      const refused = await post(app, '/api/palettes', { data: { name: 'Bad', color: 'red' } });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.name).to.equal('ValidationError');
      expect((await app.get('/api/palettes', { token: await app.fullAccessToken() })).body.data).to.have.length(1);
    },
  },
};

/**
 * The GraphQL sides of plugins whose REST sides search-comments.ts and
 * menus-navigation.ts check, with the GraphQL plugin installed
 * (`@strapi/plugin-graphql`, Tessera's): each registers its types, queries and
 * resolver configs through `strapi.plugin('graphql').service('extension')`,
 * using the graphql plugin's own helpers as Strapi v4 names them:
 * - strapi-plugin-navigation: `renderNavigation` (public, `auth: false`), its
 *   related entries as a union of the app's generated types;
 * - strapi-plugin-comments: `findAllFlat` (its filters input built from the
 *   `builders` service's operators and the `utils` service's attribute
 *   helpers and mappers), `findAllInHierarchy`, the `createComment` mutation.
 *   Its `Id` scalar (`asNexusMethod: 'id'`) parses ids with parseInt, so an
 *   author id must be numeric, on Strapi as here;
 * - strapi-plugin-fuzzy-search: `search` (its scope is its REST action) with one
 *   field per configured type, paged with the `builders` service's
 *   `transformArgs`, answered with the `format` service's collections.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

interface GraphqlAnswer {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

async function graphql(app: TestApp, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GraphqlAnswer> {
  const response = await app.post('/graphql', { query, variables }, token ? { token } : {});
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

/** The part of navigation's admin service the test calls (its admin route's handler). */
interface NavigationAdmin {
  put(id: number, payload: object): Promise<unknown>;
}

export const GRAPHQL_PLUGINS: EcosystemSuite = {
  title: 'GraphQL sides of strapi-plugin-navigation@2.5.6, strapi-plugin-comments@2.3.3 and strapi-plugin-fuzzy-search@2.2.1',
  packages: {
    '@strapi/plugin-graphql': '4.26.2',
    '@strapi/plugin-users-permissions': '4.26.2',
    'strapi-plugin-navigation': '2.5.6',
    'strapi-plugin-comments': '2.3.3',
    'strapi-plugin-fuzzy-search': '2.2.1',
  },
  files: {
    ...ARTICLE_APP,
    // fuzzy-search's scope for its query is its REST action; comments' and navigation's queries are public.
    'config/permissions.js': `module.exports = { public: ['api::article.article.find', 'plugin::navigation.client.readAll', 'plugin::fuzzy-search.searchController.search'] };`,
    // Each README's configuration, on the article app.
    'config/plugins.js': `module.exports = () => ({
  graphql: { config: { shadowCRUD: true } },
  // Every app create-strapi-app makes has i18n (fuzzy-search's query takes its I18NLocaleCode scalar).
  i18n: { enabled: true },
  navigation: { enabled: true, config: { contentTypes: ['api::article.article'], allowedLevels: 2, gql: { navigationItemRelated: ['Article'] } } },
  comments: { enabled: true, config: { enabledCollections: ['api::article.article'], badWords: false, approvalFlow: [] } },
  'fuzzy-search': { enabled: true, config: { contentTypes: [{ uid: 'api::article.article', modelName: 'article', fuzzysortOptions: { characterLimit: 300, threshold: -600, limit: 10, keys: [{ name: 'title', weight: 100 }] } }] } },
});
`,
  },
  tests: {
    "navigation: renderNavigation answers the tree its admin service saved, the related entry as the app's Article type": async (app) => {
      const token = await app.fullAccessToken();
      const article = await app.post('/api/articles', { data: { title: 'Hello', slug: 'hello' } }, { token });
      const articleId = article.body.data.id;
      const navigations = await app.get('/api/navigation');
      const master = navigations.body[0].id;
      await app.app.plugin('navigation')!.service<NavigationAdmin>('admin')!.put(master, { name: 'Main navigation', visible: true, items: [
        { master, title: 'Hello', type: 'INTERNAL', path: '/hello', uiRouterKey: 'hello', menuAttached: true, order: 1,
          related: [{ refId: articleId, ref: 'api::article.article', field: 'navigation' }],
          items: [{ master, title: 'Child', type: 'EXTERNAL', externalPath: 'https://example.com/child', uiRouterKey: 'child', menuAttached: false, order: 1 }] },
        { master, title: 'Docs', type: 'EXTERNAL', externalPath: 'https://docs.example.com', uiRouterKey: 'docs', menuAttached: true, order: 2 },
      ] });
      const tree = await graphql(app, `query ($slug: String!) {
  renderNavigation(navigationIdOrSlug: $slug, type: TREE) {
    title path type menuAttached
    related { id attributes { __typename ... on Article { title slug } } }
    items { title path type related { id } }
  }
}`, { slug: 'main-navigation' });
      expect(tree.errors, JSON.stringify(tree.errors)).to.equal(undefined);
      expect(tree.data!.renderNavigation).to.deep.equal([
        { title: 'Hello', path: '/hello', type: 'INTERNAL', menuAttached: true, related: { id: articleId, attributes: { __typename: 'Article', title: 'Hello', slug: 'hello' } },
          items: [{ title: 'Child', path: 'https://example.com/child', type: 'EXTERNAL', related: null }] },
        { title: 'Docs', path: 'https://docs.example.com', type: 'EXTERNAL', menuAttached: true, related: null, items: null },
      ]);
      const flat = await graphql(app, '{ renderNavigation(navigationIdOrSlug: "main-navigation", type: FLAT, menuOnly: true) { title parent { title } } }');
      expect(flat.data!.renderNavigation).to.have.deep.members([{ title: 'Hello', parent: null }, { title: 'Docs', parent: null }]);
      // Its own types are off in the generated schema (shadowCRUD(...).disable()).
      const own = await app.post('/graphql', { query: '{ navigations { data { id } } }' });
      expect([own.status, own.body.errors[0].message]).to.deep.equal([400, 'Cannot query field "navigations" on type "Query".']);
    },
    'comments: createComment, then findAllFlat with filters and pages and findAllInHierarchy': async (app) => {
      const token = await app.fullAccessToken();
      const article = await app.post('/api/articles', { data: { title: 'Commented' } }, { token });
      const relation = `api::article.article:${article.body.data.id}`;
      const created = await graphql(app, `mutation ($input: CreateComment!) { createComment(input: $input) { id content threadOf { id } author { id name email } } }`, {
        input: { relation, content: 'Nice post', author: { id: '1001', name: 'Ada', email: 'ada@example.com' } },
      });
      expect(created.errors, JSON.stringify(created.errors)).to.equal(undefined);
      const first = created.data!.createComment;
      expect(first).to.deep.include({ content: 'Nice post', threadOf: null, author: { id: '1001', name: 'Ada', email: 'ada@example.com' } });
      const reply = await graphql(app, `mutation ($input: CreateComment!) { createComment(input: $input) { id threadOf { id content } } }`, {
        input: { relation, content: 'Thanks!', threadOf: first.id, author: { id: '1002', name: 'Grace' } },
      });
      expect(reply.errors, JSON.stringify(reply.errors)).to.equal(undefined);
      expect(reply.data!.createComment.threadOf).to.deep.equal({ id: first.id, content: 'Nice post' });
      const flat = await graphql(app, `query ($relation: String!) { findAllFlat(relation: $relation, sort: ["content:asc"]) { data { content } meta { pagination { total } } } }`, { relation });
      expect(flat.errors, JSON.stringify(flat.errors)).to.equal(undefined);
      expect(flat.data!.findAllFlat.data).to.deep.equal([{ content: 'Nice post' }, { content: 'Thanks!' }]);
      const filtered = await graphql(app, `query ($relation: String!) { findAllFlat(relation: $relation, filters: { content: { containsi: "THANK" } }) { data { content author { name } } } }`, { relation });
      expect(filtered.errors, JSON.stringify(filtered.errors)).to.equal(undefined);
      expect(filtered.data!.findAllFlat.data).to.deep.equal([{ content: 'Thanks!', author: { name: 'Grace' } }]);
      // `not` at the type's level, and a relation's filters (its own comment type, through `app.getModel`).
      const others = await graphql(app, `query ($relation: String!) { findAllFlat(relation: $relation, filters: { not: { content: { eq: "Nice post" } } }) { data { content } } }`, { relation });
      expect(others.errors, JSON.stringify(others.errors)).to.equal(undefined);
      expect(others.data!.findAllFlat.data).to.deep.equal([{ content: 'Thanks!' }]);
      const replies = await graphql(app, `query ($relation: String!, $id: ID) { findAllFlat(relation: $relation, filters: { threadOf: { id: { eq: $id } } }) { data { content } } }`, { relation, id: first.id });
      expect(replies.errors, JSON.stringify(replies.errors)).to.equal(undefined);
      expect(replies.data!.findAllFlat.data).to.deep.equal([{ content: 'Thanks!' }]);
      const paged = await graphql(app, `query ($relation: String!) { findAllFlat(relation: $relation, sort: ["content:asc"], pagination: { page: 2, pageSize: 1 }) { data { content } meta { pagination { page pageSize pageCount total } } } }`, { relation });
      expect(paged.errors, JSON.stringify(paged.errors)).to.equal(undefined);
      expect(paged.data!.findAllFlat).to.deep.equal({ data: [{ content: 'Thanks!' }], meta: { pagination: { page: 2, pageSize: 1, pageCount: 2, total: 2 } } });
      const thread = await graphql(app, `query ($relation: String!) { findAllInHierarchy(relation: $relation) { content children { content } } }`, { relation });
      expect(thread.errors, JSON.stringify(thread.errors)).to.equal(undefined);
      expect(thread.data!.findAllInHierarchy).to.deep.equal([{ content: 'Nice post', children: [{ content: 'Thanks!' }] }]);
    },
    "fuzzy-search: search ranks each configured type's entries, pages them, and needs its REST action": async (app) => {
      const token = await app.fullAccessToken();
      for (const title of ['Dereshkovich on rivers', 'Mountains of Tessera', 'Dereshi lakes']) {
        expect((await app.post('/api/articles', { data: { title } }, { token })).status).to.equal(200);
      }
      const found = await graphql(app, '{ search(query: "deresh") { articles { data { id attributes { title } } } } }');
      expect(found.errors, JSON.stringify(found.errors)).to.equal(undefined);
      expect(found.data!.search.articles.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.have.members(['Dereshkovich on rivers', 'Dereshi lakes']);
      const paged = await graphql(app, '{ search(query: "deresh") { articles(pagination: { page: 1, pageSize: 1 }) { data { id } } } }');
      expect(paged.data!.search.articles.data).to.have.length(1);
      // Its resolver config's scope (one action, not a list) is checked: a token without that action is refused.
      const { accessKey } = await app.app.apiTokens.create({ name: 'articles-only', type: 'custom', permissions: ['api::article.article.find'] });
      const refused = await graphql(app, '{ search(query: "deresh") { articles { data { id } } } }', {}, accessKey);
      expect(refused.errors!.map((error) => [error.message, error.extensions?.code])).to.deep.equal([['Forbidden access', 'FORBIDDEN']]);
      const both = await graphql(app, '{ search(query: "deresh") { articles(pagination: { page: 1, start: 0 }) { data { id } } } }');
      expect(both.errors!.map((error) => [error.message, error.extensions?.code])).to.deep.equal([['Cannot use both page & offset pagination in the same query', 'STRAPI_PAGINATION_ERROR']]);
      const missing = await app.post('/graphql', { query: '{ search { articles { data { id } } } }' });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors[0].message).to.equal('Field "search" argument "query" of type "String!" is required, but it was not provided.');
    },
  },
};

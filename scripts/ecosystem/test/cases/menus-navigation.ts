/**
 * Menu and navigation plugins, whose content-API routes render what an
 * editor built in the admin panel (skipped here; the menus plugin's content
 * API writes too, and navigation's tree is saved through its admin service,
 * which its admin route calls):
 * - strapi-plugin-menus: `POST /api/menus` with items, `GET /api/menus` (its
 *   `GET /` route under the plugin prefix) and `?nested` trees.
 * - strapi-plugin-navigation (v2, the last for Strapi v4): `GET
 *   /api/navigation/render/:slug` as FLAT and TREE, items related to an entry.
 */
import { expect } from 'chai';
import { gatesOf, routeTable } from '@tessera/core';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

async function createArticle(app: TestApp, title: string, token: string): Promise<number> {
  const response = await app.post('/api/articles', { data: { title, slug: title.toLowerCase() } }, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data.id;
}

/** The part of navigation's admin service the test calls (its admin route's handler). */
interface NavigationAdmin {
  put(id: number, payload: object): Promise<unknown>;
}

/** An item of `render?type=TREE`, the fields the test compares. */
interface RenderedItem {
  title: string;
  path: string;
  type: string;
  related?: { title: string };
  items?: RenderedItem[];
}

const titles = (items: Array<{ attributes: { title: string } }>) => items.map((item) => item.attributes.title);

export const MENUS: EcosystemSuite = {
  title: 'strapi-plugin-menus@1.6.1',
  packages: { 'strapi-plugin-menus': '1.6.1' },
  files: {
    ...ARTICLE_APP,
    // Its README: enable find/findOne of Menu and MenuItem for the public role.
    'config/permissions.js': `module.exports = { public: ['api::article.article.find', 'plugin::menus.menu.find', 'plugin::menus.menu.findOne', 'plugin::menus.menu-item.find', 'plugin::menus.menu-item.findOne'] };`,
  },
  tests: {
    'creates a menu with nested items over its content API and answers it flat and nested': async (app) => {
      const token = await app.fullAccessToken();
      const created = await app.post('/api/menus', { data: { title: 'Main Menu', slug: 'main-menu', items: [
        // New items carry ids with 'create' (its admin panel's form); a child names its parent by that id.
        { id: 'create-a', order: 0, title: 'Parent Page', url: '/parent-page' },
        { id: 'create-b', order: 0, title: 'Child Page', url: '/child-page', parent: { id: 'create-a' } },
        { id: 'create-c', order: 1, title: 'Another Page', url: '/another-page' },
      ] } }, { token });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const id = created.body.data.id;
      const list = await app.get('/api/menus');
      expect(list.status).to.equal(200);
      expect(list.body.data.map((menu: { attributes: object }) => menu.attributes)).to.deep.equal([
        { title: 'Main Menu', slug: 'main-menu', createdAt: created.body.data.attributes.createdAt, updatedAt: created.body.data.attributes.updatedAt },
      ]);
      expect(list.body.meta).to.deep.include({ total: 1 });
      const flat = await app.get(`/api/menus/${id}?populate=*`);
      expect(titles(flat.body.data.attributes.items.data).sort()).to.deep.equal(['Another Page', 'Child Page', 'Parent Page']);
      const nested = await app.get(`/api/menus/${id}?nested&populate=*`);
      const roots = nested.body.data.attributes.items.data;
      expect(titles(roots)).to.deep.equal(['Parent Page', 'Another Page']);
      expect(titles(roots[0].attributes.children.data)).to.deep.equal(['Child Page']);
      expect(roots[0].attributes).to.not.have.property('parent');
      expect((await app.get(`/api/menus/${id}`, {})).body.data.attributes).to.not.have.property('items');
    },
  },
};

export const NAVIGATION: EcosystemSuite = {
  title: 'strapi-plugin-navigation@2.5.6',
  packages: { 'strapi-plugin-navigation': '2.5.6', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    'config/permissions.js': `module.exports = { public: ['api::article.article.find', 'plugin::navigation.client.render', 'plugin::navigation.client.readAll'] };`,
    // Its README's config: which types items may point at, and how deep.
    'config/plugins.js': `module.exports = () => ({ navigation: { enabled: true, config: { contentTypes: ['api::article.article'], allowedLevels: 2 } } });`,
  },
  tests: {
    'renders the navigation its admin service saved, flat and as a tree with the related entry': async (app) => {
      const token = await app.fullAccessToken();
      const articleId = await createArticle(app, 'Hello', token);
      const all = await app.get('/api/navigation');
      expect(all.status).to.equal(200);
      // Its bootstrap made the default navigation.
      expect(all.body.map((navigation: { name: string; slug: string }) => [navigation.name, navigation.slug])).to.deep.equal([['Main navigation', 'main-navigation']]);
      const master = all.body[0].id;
      // The payload its admin panel sends (parsers.js transformToRESTPayload), through the service its admin route calls.
      await app.app.plugin('navigation')!.service<NavigationAdmin>('admin')!.put(master, { name: 'Main navigation', visible: true, items: [
        { master, title: 'Hello', type: 'INTERNAL', path: '/hello', uiRouterKey: 'hello', menuAttached: true, order: 1,
          related: [{ refId: articleId, ref: 'api::article.article', field: 'navigation' }],
          items: [{ master, title: 'Child', type: 'EXTERNAL', externalPath: 'https://example.com/child', uiRouterKey: 'child', menuAttached: false, order: 1 }] },
        { master, title: 'Docs', type: 'EXTERNAL', externalPath: 'https://docs.example.com', uiRouterKey: 'docs', menuAttached: true, order: 2 },
      ] });
      const tree = await app.get('/api/navigation/render/main-navigation?type=TREE');
      expect(tree.status, JSON.stringify(tree.body)).to.equal(200);
      const shape = (items: RenderedItem[]): unknown[] =>
        items.map(({ title, path, type, related, items: children }) => ({ title, path, type, related: related?.title, items: children && shape(children) }));
      expect(shape(tree.body)).to.deep.equal([
        { title: 'Hello', path: '/hello', type: 'INTERNAL', related: 'Hello', items: [{ title: 'Child', path: 'https://example.com/child', type: 'EXTERNAL', related: undefined, items: undefined }] },
        { title: 'Docs', path: 'https://docs.example.com', type: 'EXTERNAL', related: undefined, items: undefined },
      ]);
      expect(tree.body[0].related).to.deep.include({ id: articleId, slug: 'hello', __contentType: 'api::article.article' });
      const flat = await app.get('/api/navigation/render/main-navigation');
      expect(flat.body.map((item: { title: string; parent: { title: string } | null }) => [item.title, item.parent?.title ?? null])).to.have.deep.members([
        ['Hello', null],
        ['Child', 'Hello'],
        ['Docs', null],
      ]);
      const missing = await app.get('/api/navigation/render/nowhere');
      expect(missing.status).to.equal(404);
    },
    "runs every route of the plugin through the kernel's one gate, requiring the route's own action": async (app) => {
      // Issue 37: a plugin from npm gets no gate of its own making. Its content-API routes require
      // plugin::navigation.<controller>.<action> (what its README asks the public role to be given). This app has no
      // @strapi/admin, so the plugin's admin routes are not served (scripts/ecosystem/test/admin-sides.test.ts
      // checks them behind the admin's gate).
      const gates = gatesOf(app.app);
      const rows = routeTable(app.app).filter((row) => row.namespace === 'plugin::navigation');
      expect(rows.map((row) => `${row.method} ${row.path}`)).to.include('GET /api/navigation/render/:idOrSlug');
      expect(rows.filter((row) => !gates.has(`${row.method} ${row.path}`)).map((row) => `${row.method} ${row.path}`), 'routes without a gate').to.deep.equal([]);
      for (const row of rows.filter((candidate) => candidate.path.startsWith('/api/') && candidate.auth !== false)) {
        const summary = gates.get(`${row.method} ${row.path}`)!.summary();
        expect([row.path, summary.actions], row.path).to.deep.equal([row.path, [row.action]]);
      }
      const render = '/api/navigation/render/main-navigation';
      expect(gates.get(`GET ${render.replace('main-navigation', ':idOrSlug')}`)?.summary().actions).to.deep.equal(['plugin::navigation.client.render']);
      // The public role holds render and readAll (config/permissions.js), as the gate asks.
      expect((await app.get(render)).status).to.equal(200);
    },
  },
};

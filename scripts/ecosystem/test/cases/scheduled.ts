/**
 * Plugins whose work runs on their own, outside a request:
 * - strapi-plugin-publisher: an action made through its content API publishes
 *   a draft when its `executeAt` has passed, from its `strapi.cron` job (its
 *   `syncFrequency`, here every second).
 * - strapi-plugin-sitemap: with `autoGenerate`, its `strapi.db.lifecycles`
 *   subscribers rebuild the sitemap on every write, served at
 *   `/api/sitemap/index.xml` (its settings are the admin panel's: the app
 *   stores them through `strapi.store`, as that panel would).
 * - strapi-plugin-config-sync: exports the configuration held in the
 *   database (core store rows, users-permissions roles) to JSON files.
 * - strapi-plugin-website-builder: its event trigger (`strapi.eventHub`) posts
 *   to the build URL after each configured write, and logs each build.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { WebhookReceiver } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

const article = ARTICLE_APP['src/api/article/content-types/article/schema.json'] as { options: object };

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

export const PUBLISHER: EcosystemSuite = {
  title: 'strapi-plugin-publisher@1.5.9',
  packages: { 'strapi-plugin-publisher': '1.5.9' },
  files: {
    ...ARTICLE_APP,
    'src/api/article/content-types/article/schema.json': { ...article, options: { draftAndPublish: true } },
    // Its README's `actions.syncFrequency` (a node-schedule rule), every second so the test need not wait a minute.
    'config/plugins.js': `module.exports = () => ({ publisher: { enabled: true, config: { actions: { syncFrequency: '*/1 * * * * *' } } } });`,
  },
  tests: {
    'publishes a draft from its cron job once the action is due, then removes the action': async (app) => {
      const token = await app.fullAccessToken();
      const draft = await app.post('/api/articles', { data: { title: 'Scheduled', publishedAt: null } }, { token });
      expect(draft.body.data.attributes.publishedAt).to.equal(null);
      const scheduled = () => app.get('/api/articles?filters[title]=Scheduled');
      expect((await scheduled()).body.data).to.deep.equal([]);
      const executeAt = new Date(Date.now() - 1000).toISOString();
      const action = await app.post('/api/publisher/actions', { data: { mode: 'publish', entityId: draft.body.data.id, entitySlug: 'api::article.article', executeAt } }, { token });
      expect(action.status, JSON.stringify(action.body)).to.equal(200);
      expect(action.body.data.attributes).to.deep.include({ mode: 'publish', entityId: draft.body.data.id, entitySlug: 'api::article.article', executeAt });
      const published = await waitFor(scheduled, (response) => response.body.data.length === 1);
      expect(published.body.data[0].attributes).to.deep.include({ title: 'Scheduled', publishedAt: executeAt });
      const actions = await waitFor(() => app.get('/api/publisher/actions', { token }), (response) => response.body.data.length === 0);
      expect(actions.body.data).to.deep.equal([]);
    },
  },
};

export const SITEMAP: EcosystemSuite = {
  title: 'strapi-plugin-sitemap@3.2.1',
  packages: { 'strapi-plugin-sitemap': '3.2.1', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    'config/plugins.js': `module.exports = () => ({ sitemap: { enabled: true, config: { autoGenerate: true, allowedFields: ['id', 'uid', 'slug'], xsl: false } } });`,
    // The settings its admin panel saves, then what saving them does there: subscribe the lifecycles, generate.
    'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    await strapi.store({ environment: '', type: 'plugin', name: 'sitemap' }).set({ key: 'settings', value: {
      hostname: 'https://example.com', includeHomepage: true, excludeDrafts: true, defaultLanguageUrlType: '', defaultLanguageUrl: '', hostname_overrides: {},
      contentTypes: { 'api::article.article': { languages: { und: { pattern: '/articles/[slug]', priority: 0.7, changefreq: 'weekly', includeLastmod: false } } } },
      customEntries: { '/about': { priority: 0.3, changefreq: 'yearly' } },
    } });
    await strapi.plugin('sitemap').service('lifecycle').loadAllLifecycleMethods();
    await strapi.plugin('sitemap').service('core').createSitemap();
  },
};
`,
  },
  tests: {
    'serves the generated sitemap to anyone and regenerates it on each write': async (app) => {
      const url = (loc: string, changefreq: string, priority: string) => `<url><loc>https://example.com${loc}</loc><changefreq>${changefreq}</changefreq><priority>${priority}</priority></url>`;
      const sitemap = async () => (await app.get('/api/sitemap/index.xml')).text;
      const empty = await app.get('/api/sitemap/index.xml');
      // Its bootstrap granted the public role its actions through users-permissions' role service (updateRole).
      expect(empty.status).to.equal(200);
      expect(empty.headers.get('content-type')).to.equal('application/xml');
      expect(empty.text).to.contain(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`).and.contain(`${url('/about', 'yearly', '0.3')}${url('/', 'monthly', '1.0')}</urlset>`);
      const token = await app.fullAccessToken();
      for (const slug of ['first', 'second']) await app.post('/api/articles', { data: { title: slug, slug } }, { token });
      const text = await waitFor(sitemap, (body) => body.includes('/articles/second'));
      // Rebuilt from its cache table with the written entries added: the order of the URLs follows the writes.
      const urls = text.match(/<url>.*?<\/url>/g) ?? [];
      expect(urls).to.have.members([url('/articles/first', 'weekly', '0.7'), url('/articles/second', 'weekly', '0.7'), url('/about', 'yearly', '0.3'), url('/', 'monthly', '1.0')]);
    },
  },
};

/** What config-sync's CLI and admin panel call on its main service. */
interface ConfigSyncMain {
  exportAllConfig(): Promise<void>;
  importAllConfig(): Promise<void>;
}

const syncDir = path.join(os.tmpdir(), `tessera-eco-config-sync-${process.pid}`);

export const CONFIG_SYNC: EcosystemSuite = {
  title: 'strapi-plugin-config-sync@1.2.6',
  packages: { 'strapi-plugin-config-sync': '1.2.6', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    // Its README's config; the admin roles are the admin panel's (Tessera has none), so that type is excluded.
    'config/plugins.js': `module.exports = () => ({ 'config-sync': { enabled: true, config: { syncDir: ${JSON.stringify(`${syncDir}/`)}, minify: false, importOnBootstrap: false, excludedTypes: ['admin-role'] } } });`,
  },
  tests: {
    'exports the core store and the roles to files, and imports a changed role back': async (app) => {
      fs.rmSync(syncDir, { recursive: true, force: true });
      const main = app.app.plugin('config-sync')!.service<ConfigSyncMain>('main')!;
      try {
        await main.exportAllConfig();
        const files = fs.readdirSync(syncDir).sort();
        expect(files).to.include.members(['core-store.plugin_users-permissions_advanced.json', 'user-role.authenticated.json', 'user-role.public.json']);
        const advanced = JSON.parse(fs.readFileSync(path.join(syncDir, 'core-store.plugin_users-permissions_advanced.json'), 'utf8'));
        expect(advanced).to.deep.include({ key: 'plugin_users-permissions_advanced', type: 'object' });
        expect(advanced.value).to.deep.include({ default_role: 'authenticated', unique_email: true });
        const publicFile = path.join(syncDir, 'user-role.public.json');
        const publicRole = JSON.parse(fs.readFileSync(publicFile, 'utf8'));
        expect(publicRole.permissions).to.deep.include({ action: 'api::article.article.find' });
        fs.writeFileSync(publicFile, JSON.stringify({ ...publicRole, description: 'Changed in a file' }, null, 2));
        await main.importAllConfig();
        const stored = await app.app.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
        expect(stored?.description).to.equal('Changed in a file');
      } finally {
        fs.rmSync(syncDir, { recursive: true, force: true });
      }
    },
  },
};

let builds: WebhookReceiver | undefined;

export const WEBSITE_BUILDER: EcosystemSuite = {
  title: 'strapi-plugin-website-builder@2.2.2',
  // Its peer axios, which npm 7+ installs with it (the suite installs no peers itself).
  packages: { 'strapi-plugin-website-builder': '2.2.2', axios: '0.24.0' },
  async service() {
    builds = await WebhookReceiver.start();
    const receiver = builds;
    return { env: { BUILD_URL: receiver.url }, stop: () => receiver.stop() };
  },
  files: {
    ...ARTICLE_APP,
    // Its README's "Event Configuration", on the article type.
    'config/plugins.js': `module.exports = ({ env }) => ({
  'website-builder': {
    enabled: true,
    config: {
      url: env('BUILD_URL'),
      headers: { Authorization: 'Bearer build-token' },
      trigger: { type: 'event', events: [{ model: 'article', types: ['create', 'delete'], params: (record) => ({ id: \`\${record.id}_\${record.title}\` }) }] },
    },
  },
});
`,
  },
  tests: {
    'posts to the build URL after a create and a delete of an article (not an update), and logs each build': async (app) => {
      const token = await app.fullAccessToken();
      const created = await app.post('/api/articles', { data: { title: 'Built' } }, { token });
      const id = created.body.data.id;
      await app.put(`/api/articles/${id}`, { data: { title: 'Rebuilt' } }, { token });
      await app.delete(`/api/articles/${id}`, { token });
      const requests = await builds!.waitFor(2);
      expect(requests.map((request) => [request.method, request.path, request.headers.authorization, request.json])).to.deep.equal([
        ['POST', `/hook?id=${id}_Built`, 'Bearer build-token', {}],
        ['POST', `/hook?id=${id}_Rebuilt`, 'Bearer build-token', {}],
      ]);
      const logs = await waitFor(() => app.app.db.query('plugin::website-builder.log').findMany({ orderBy: { id: 'asc' } }), (rows) => rows.length === 2);
      expect(logs.map((log) => [log.trigger, log.status])).to.deep.equal([['event', 200], ['event', 200]]);
    },
  },
};

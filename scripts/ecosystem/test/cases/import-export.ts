/**
 * strapi-plugin-import-export-entries: its content-API routes (README
 * "Content API"), called with an API token: export a type as JSON, then
 * import entries from JSON and CSV.
 */
import { expect } from 'chai';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

export const IMPORT_EXPORT: EcosystemSuite = {
  title: 'strapi-plugin-import-export-entries@1.23.1',
  packages: { 'strapi-plugin-import-export-entries': '1.23.1' },
  files: ARTICLE_APP,
  tests: {
    'exports entries as JSON and imports JSON and CSV through its content-API routes': async (app) => {
      const token = await app.fullAccessToken();
      const category = await app.post('/api/categories', { data: { name: 'News' } }, { token });
      await app.post('/api/articles', { data: { title: 'Exported', category: category.body.data.id } }, { token });
      const exported = await app.post('/api/import-export-entries/content/export/contentTypes', { slug: 'api::article.article', exportFormat: 'json' }, { token });
      expect(exported.status, JSON.stringify(exported.body)).to.equal(200);
      const [entry] = JSON.parse(exported.body.data);
      expect(entry).to.deep.include({ id: 1, title: 'Exported', slug: null, seo: null });
      expect(entry.category).to.deep.include({ id: category.body.data.id, name: 'News' });
      // JSON (a string, parsed by the plugin) and CSV imports create entries through the entity service.
      const json = await app.post('/api/import-export-entries/content/import', { slug: 'api::category.category', format: 'json', data: JSON.stringify([{ name: 'Sport' }, { name: 'Music' }]) }, { token });
      expect(json.status).to.equal(200);
      expect(json.body).to.deep.equal({ failures: [] });
      const csv = await app.post('/api/import-export-entries/content/import', { slug: 'api::category.category', format: 'csv', data: 'name\nTravel\n' }, { token });
      expect(csv.body).to.deep.equal({ failures: [] });
      const names = (await app.get('/api/categories?sort=id')).body.data.map((row: { attributes: { name: string } }) => row.attributes.name);
      expect(names).to.deep.equal(['News', 'Sport', 'Music', 'Travel']);
      // Its routes are content-API routes: no token, no access.
      const anonymous = await app.post('/api/import-export-entries/content/import', { slug: 'api::category.category', format: 'csv', data: 'name\nNope\n' });
      expect(anonymous.status).to.equal(403);
    },
  },
};

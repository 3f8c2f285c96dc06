import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { npmInstall, registryUnreachable } from './app-folder';

/**
 * Refine's Strapi v4 data provider (`@refinedev/strapi-v4` 7.0.1, from npm) driven through its public API against
 * the example app: the list, one, many, create, update and delete calls an admin screen built with Refine makes, with
 * its pagination, sorters, filters (a nested field, `contains`, `or`) and `meta` (populate, fields), and the error it
 * builds from a 400. The requests are Refine's own (its qs encoding); the answers are checked value by value.
 */
const REFINE = '@refinedev/strapi-v4@7.0.1';

interface Provider {
  getList(params: object): Promise<{ data: Array<Record<string, unknown>>; total: number }>;
  getMany(params: object): Promise<{ data: Array<Record<string, unknown>> }>;
  getOne(params: object): Promise<{ data: Record<string, unknown> }>;
  create(params: object): Promise<{ data: { data: { id: number; attributes: Record<string, unknown> } } }>;
  update(params: object): Promise<{ data: { data: { id: number; attributes: Record<string, unknown> } } }>;
  deleteOne(params: object): Promise<{ data: { data: { id: number } } }>;
}

describe('Strapi ecosystem: Refine data provider (@refinedev/strapi-v4) on the example app', function () {
  this.timeout(600_000);
  let dir: string;
  let load: (name: string) => unknown;

  before(function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-refine-'));
    npmInstall(dir, [REFINE]);
    load = createRequire(path.join(dir, 'index.js'));
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  eachDatabase('Refine', (dialect) => {
    let app: TestApp;
    let provider: Provider;
    before(async () => {
      app = await startApp({ dialect, from: EXAMPLE_APP });
      const token = await app.fullAccessToken();
      const axios = load('axios') as { create(config: object): unknown };
      const refine = load('@refinedev/strapi-v4') as { DataProvider(apiUrl: string, client: unknown): Provider };
      provider = refine.DataProvider(`${app.url}/api`, axios.create({ headers: { Authorization: `Bearer ${token}` } }));
    });
    after(() => app.stop());

    it('creates, lists, reads, updates and deletes as an admin screen does', async () => {
      const categories: number[] = [];
      for (const name of ['Refine A', 'Refine B', 'Refine C']) categories.push((await provider.create({ resource: 'categories', variables: { name } })).data.data.id);
      const publishedAt = '2026-01-02T03:04:05.000Z';
      for (const [title, category] of [['Refine one', categories[0]], ['Refine two', categories[1]], ['Refine three', categories[1]], ['Other', categories[2]]] as const) {
        const created = await provider.create({ resource: 'articles', variables: { title, category, publishedAt } });
        expect(created.data.data.attributes).to.include({ title, publishedAt });
      }

      const page = await provider.getList({
        resource: 'articles',
        pagination: { currentPage: 1, pageSize: 2 },
        sorters: [{ field: 'title', order: 'asc' }],
        filters: [{ field: 'title', operator: 'contains', value: 'Refine' }],
        meta: { populate: { category: { fields: ['name'] } }, fields: ['title'] },
      });
      expect(page.total).to.equal(3);
      expect(page.data.map((entry) => ({ title: entry.title, category: (entry.category as { name: string }).name }))).to.deep.equal([
        { title: 'Refine one', category: 'Refine A' },
        { title: 'Refine three', category: 'Refine B' },
      ]);

      const nested = await provider.getList({
        resource: 'articles',
        filters: [{ operator: 'or', value: [{ field: 'category.name', operator: 'eq', value: 'Refine B' }, { field: 'title', operator: 'eq', value: 'Other' }] }],
        sorters: [{ field: 'id', order: 'desc' }],
        meta: { fields: ['title'] },
      });
      expect([nested.total, nested.data.map((entry) => entry.title)]).to.deep.equal([3, ['Other', 'Refine three', 'Refine two']]);

      const many = await provider.getMany({ resource: 'categories', ids: [categories[0], categories[2]] });
      expect(many.data.map((entry) => entry.name).sort()).to.deep.equal(['Refine A', 'Refine C']);

      const one = await provider.getOne({ resource: 'categories', id: categories[1], meta: { populate: { articles: { fields: ['title'], sort: 'title' } } } });
      expect([one.data.name, (one.data.articles as Array<{ title: string }>).map((article) => article.title)]).to.deep.equal(['Refine B', ['Refine three', 'Refine two']]);

      const updated = await provider.update({ resource: 'categories', id: categories[2], variables: { name: 'Refine C2' } });
      expect(updated.data.data.attributes.name).to.equal('Refine C2');
      const deleted = await provider.deleteOne({ resource: 'categories', id: categories[0] });
      expect(deleted.data.data.id).to.equal(categories[0]);
      expect((await provider.getList({ resource: 'categories', filters: [{ field: 'name', operator: 'startswith', value: 'Refine' }] })).total).to.equal(2);
    });

    it("turns a 400 into Refine's HttpError with the field's message", async () => {
      let failure: { statusCode?: number; message?: string; errors?: Record<string, unknown> } | undefined;
      await provider.create({ resource: 'articles', variables: { slug: 'no-title' } }).catch((error: typeof failure) => (failure = error));
      expect(failure?.statusCode).to.equal(400);
      expect(failure?.errors).to.have.property('title');
    });
  });
});

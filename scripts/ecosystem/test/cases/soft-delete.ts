/**
 * strapi-plugin-soft-delete: decorates `strapi.entityService` (Strapi v4's
 * `decorate`), so a REST delete of an `api::` type marks the entry deleted
 * (`_softDeletedAt`, by whom) instead of removing it, and every read through
 * the entity service (its `wrapParams`) leaves marked entries out: the REST
 * list, its total and a get by id. The row stays in the table.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

async function article(app: TestApp, title: string, token: string): Promise<number> {
  const response = await app.post('/api/articles', { data: { title } }, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data.id;
}

export const SOFT_DELETE: EcosystemSuite = {
  title: 'strapi-plugin-soft-delete@0.9.6',
  packages: { 'strapi-plugin-soft-delete': '0.9.6' },
  files: { ...ARTICLE_APP },
  tests: {
    'a REST delete marks the entry, which REST reads then leave out, and keeps its row': async (app) => {
      const token = await app.fullAccessToken();
      const kept = await article(app, 'Kept', token);
      const gone = await article(app, 'Gone', token);
      const deleted = await app.delete(`/api/articles/${gone}`, { token });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
      expect(deleted.body.data).to.deep.include({ id: gone });
      expect(deleted.body.data.attributes).to.include({ title: 'Gone' }).and.not.have.any.keys('_softDeletedAt', '_softDeletedById', '_softDeletedByType');
      const list = await app.get('/api/articles');
      expect(list.body.data.map((entry: { id: number }) => entry.id)).to.deep.equal([kept]);
      expect(list.body.meta.pagination.total).to.equal(1);
      expect((await app.get(`/api/articles/${gone}`)).status).to.equal(404);
      const row = await app.app.db.query('api::article.article').findOne({ where: { id: gone } });
      // Who deleted, read from `strapi.requestContext` (ctx.state.auth: the strategy's name, the token's id).
      expect(row).to.include({ title: 'Gone', _softDeletedByType: 'api-token' });
      expect(row?._softDeletedById).to.be.a('number');
      expect(new Date(row?._softDeletedAt as string).getTime()).to.be.closeTo(Date.now(), 60_000);
    },
  },
};

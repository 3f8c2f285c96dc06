import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * Requests an adversarial review of the example app found answered with a 500 (or worse), each pinned to the
 * clear 4xx or empty answer it gets now. Every database, since most of them failed on PostgreSQL alone.
 */
const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

function validationError(message: string, path: string[]) {
  return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } } };
}

eachDatabase('hostile input (example app)', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async function () {
    this.timeout(60000);
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  describe('ids beyond the id column (int4 on PostgreSQL: binding one was a 500 there)', () => {
    const BEYOND = 2 ** 31;

    it('REST reads, updates and deletes by such an id are 404s', async () => {
      expect((await app.get(`/api/articles/${BEYOND}`)).body).to.deep.equal(NOT_FOUND);
      expect((await app.put(`/api/articles/${BEYOND}`, { data: { views: 1 } }, { token })).body).to.deep.equal(NOT_FOUND);
      expect((await app.delete(`/api/articles/${BEYOND}`, { token })).body).to.deep.equal(NOT_FOUND);
      expect((await app.get(`/api/users/${BEYOND}`, { token })).body).to.deep.equal(NOT_FOUND);
      const file = await app.get(`/api/upload/files/${BEYOND}`, { token });
      expect(file.body).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'file.notFound', details: {} } });
    });

    it('GraphQL finds no entry by such an id', async () => {
      const read = await app.post('/graphql', { query: `{ article(id: "${BEYOND}") { data { id } } }` });
      expect(read.body).to.deep.equal({ data: { article: { data: null } } });
      const update = await app.post('/graphql', { query: `mutation { updateArticle(id: "${BEYOND}", data: { views: 1 }) { data { id } } }` }, { token });
      expect(update.body).to.deep.equal({ data: { updateArticle: { data: null } } });
    });
  });

  describe('json values PostgreSQL cannot store', () => {
    it('an unpaired surrogate in a json value or key is a 400 naming the attribute (was a 500 on PostgreSQL)', async () => {
      const expected = validationError('meta must not contain unpaired UTF-16 surrogates', ['meta']);
      for (const meta of [{ a: '\ud800' }, { a: 'x\udc00y' }, { '\udbff': 1 }, ['\ud800']]) {
        const response = await app.post('/api/articles', { data: { title: 'surrogate', meta } }, { token });
        expect(response.status).to.equal(400);
        expect(response.body).to.deep.equal(expected);
      }
    });

    it('still stores surrogate pairs (emoji)', async () => {
      const response = await app.post('/api/articles', { data: { title: 'emoji', meta: { face: '😀', key: { '𝄞': 1 } } } }, { token });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes.meta).to.deep.equal({ face: '😀', key: { '𝄞': 1 } });
    });
  });
});

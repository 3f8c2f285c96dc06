/**
 * The model routes' edges: only a signed-in admin is answered (a content-API token is not an admin credential), any
 * body on a write route gets a 4xx in the admin error envelope and changes nothing, a saved view has a size budget,
 * and each route runs a fixed number of queries whatever the model holds.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerAdmin, seedArticles, startPeerApp } from './fixture';

const CM = '/content-manager';
const NOTE = `${CM}/content-types/api::note.note/configuration`;
const SEO = `${CM}/components/shared.seo/configuration`;
const ROUTES: Array<[string, string]> = [
  ['GET', `${CM}/init`],
  ['GET', `${CM}/content-types`],
  ['GET', `${CM}/components`],
  ['GET', `${CM}/content-types-settings`],
  ['GET', NOTE],
  ['PUT', NOTE],
  ['GET', SEO],
  ['PUT', SEO],
  ['POST', `${CM}/uid/generate`],
  ['POST', `${CM}/uid/check-availability`],
];
const WRITES: Array<[string, string]> = [['PUT', NOTE], ['PUT', SEO], ['POST', `${CM}/uid/generate`], ['POST', `${CM}/uid/check-availability`]];
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const BODIES = [
  '"text"',
  '42',
  'null',
  '[]',
  '{broken',
  '{"settings":{"pageSize":{"$gt":1}},"layouts":{"list":[{"a":1}],"edit":[[["x"]]]}}',
  '{"contentTypeUID":"api::article.article","field":"slug","data":"x","value":["a"]}',
  '{"contentTypeUID":"api::article.article","field":"slug","value":"x".repeat}',
  `{"settings":${deep(5000)}}`,
  `{"metadatas":{"title":{"edit":{"label":"${'é'.repeat(5000)}"},"list":"x"},"metaTitle":{"edit":{"label":"${'é'.repeat(5000)}"},"list":"x"}}}`,
];

async function storedRow(app: TestApp, key: string): Promise<unknown> {
  return app.app.db.query('strapi::core-store').findOne({ where: { key }, select: ['key', 'value', 'type'] });
}

eachDatabase('content-manager model routes: callers, bad input, budgets, queries', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startPeerApp(dialect);
    await seedArticles(app, 3);
    token = await registerAdmin(app);
  });
  after(() => app?.stop());

  it('answers no one but a signed-in admin: no credential, a content-API token and a forged session get 401', async () => {
    const apiToken = await app.fullAccessToken();
    for (const [method, path] of ROUTES) {
      for (const credential of [undefined, apiToken, `${token.slice(0, -4)}AAAA`]) {
        const response = await app.request(method, encodeURI(path), { token: credential, body: method === 'GET' ? undefined : {} });
        expect([path, credential === undefined ? 'none' : 'token', response.status, response.body]).to.deep.equal([
          path,
          credential === undefined ? 'none' : 'token',
          401,
          { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } },
        ]);
      }
    }
  });

  it('answers any body on a write route with a 4xx in the error envelope, and stores nothing', async () => {
    const keys = ['plugin_content_manager_configuration_content_types::api::note.note', 'plugin_content_manager_configuration_components::shared.seo'];
    const before = await Promise.all(keys.map((key) => storedRow(app, key)));
    for (const [method, path] of WRITES) {
      for (const rawBody of BODIES) {
        const response = await app.request(method, encodeURI(path), { token, rawBody });
        expect(response.status, `${method} ${path} ${rawBody.slice(0, 60)}`).to.be.oneOf([400, 403, 413]);
        expect(response.body.data, rawBody.slice(0, 60)).to.equal(null);
        expect(response.body.error.status).to.equal(response.status);
      }
    }
    expect(await Promise.all(keys.map((key) => storedRow(app, key)))).to.deep.equal(before);
  });

  it('refuses a saved view over its budget (256 KiB), keys of no attribute included, and keeps the stored one', async () => {
    const key = 'plugin_content_manager_configuration_components::shared.seo';
    const before = await storedRow(app, key);
    const metadatas = Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`extra${index}`, { edit: { label: 'x'.repeat(80) }, list: {} }]));
    const response = await app.put(SEO, { metadatas }, { token });
    expect([response.status, response.body]).to.deep.equal([
      400,
      { data: null, error: { status: 400, name: 'BadRequestError', message: 'Bad Request', details: { name: 'validationError', errors: ['this must be at most 262144 bytes of JSON'] } } },
    ]);
    expect(await storedRow(app, key)).to.deep.equal(before);
  });

  it('runs a fixed number of queries per route, whatever the number of types and components', async () => {
    // The route's own statements: the store's and the type's tables (the admin's session and the public role's
    // permission cache are read by the kernel, whatever the route).
    const OWN = /strapi_core_store_settings|articles/;
    const statements: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => void (OWN.test(sql) && statements.push(sql)));
    const count = async (method: string, path: string, body?: unknown) => {
      statements.length = 0;
      const response = await app.request(method, encodeURI(path), { token, body });
      expect(response.status, path).to.equal(200);
      return statements.length;
    };
    try {
      expect(await count('GET', `${CM}/init`)).to.equal(0);
      expect(await count('GET', `${CM}/content-types`)).to.equal(0);
      expect(await count('GET', `${CM}/components`)).to.equal(0);
      // Every type's settings in one read (18 types).
      expect(await count('GET', `${CM}/content-types-settings`)).to.equal(1);
      // A type and the components it shows in one read, with or without components.
      expect(await count('GET', `${CM}/content-types/api::article.article/configuration`)).to.equal(1);
      expect(await count('GET', NOTE)).to.equal(1);
      expect(await count('GET', SEO)).to.equal(1);
      expect(await count('POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'slug', data: { title: 'Article 1' } })).to.equal(1);
      expect(await count('POST', `${CM}/uid/check-availability`, { contentTypeUID: 'api::article.article', field: 'slug', value: 'article-1' })).to.equal(2);
    } finally {
      stop();
    }
  });
});

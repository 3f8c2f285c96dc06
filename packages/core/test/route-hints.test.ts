import { expect } from 'chai';
import { eachDatabase, EXAMPLE_APP, startApp, type TestApp, inProduction } from '@tessera/testing';

const notFound = (hint: string) => ({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: { hint } } });

eachDatabase('finding your way: 404 hints and the development index', (dialect) => {
  let app: TestApp;
  let savedMode: string | undefined;
  before(async () => {
    savedMode = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    app = await startApp({ dialect, from: EXAMPLE_APP });
  });
  after(async () => {
    if (savedMode === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = savedMode;
    await app.stop();
  });

  it('answers an unknown /api/ path with the closest content-API route as details.hint', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/article', 'no route GET /api/article; the closest content-API route is GET /api/articles'],
      ['GET', '/api/articels/3', 'no route GET /api/articels/3; the closest content-API route is GET /api/articles/:id'],
      ['POST', '/api/categorys', 'no route POST /api/categorys; the closest content-API route is POST /api/categories'],
      ['GET', '/api/homepages', 'no route GET /api/homepages; the closest content-API route is GET /api/homepage'],
      ['DELETE', '/api/tags/1/extra', 'no route DELETE /api/tags/1/extra; the closest content-API route is DELETE /api/tags/:id'],
    ];
    for (const [method, path, hint] of cases) {
      const response = await app.request(method, path, method === 'POST' ? { body: { data: {} } } : {});
      expect(response.status, path).to.equal(404);
      expect(response.body, path).to.deep.equal(notFound(hint));
    }
  });

  it('keeps a plain 404 outside /api/ and for entries that do not exist', async () => {
    const plain = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
    expect((await app.get('/favicon.ico')).body).to.deep.equal(plain);
    expect((await app.get('/api/articles/9999')).body).to.deep.equal(plain);
  });

  it('GET / in development lists the content-API routes', async () => {
    const response = await app.get('/');
    expect(response.status).to.equal(200);
    const routes: string[] = response.body.data.routes;
    expect(routes).to.include.members(['GET /api/articles', 'GET /api/articles/:id', 'POST /api/articles', 'PUT /api/articles/:id', 'DELETE /api/articles/:id', 'GET /api/homepage']);
    expect(routes.every((route) => /^(GET|POST|PUT|DELETE) \/api\//.test(route))).to.equal(true);
    // The full table, as `tessera routes` prints it.
    const table: Array<{ method: string; path: string; auth: string; action: string }> = response.body.data.table;
    expect(table.find((row) => row.method === 'GET' && row.path === '/api/articles')).to.include({ auth: 'public', action: 'api::article.article.find' });
    expect(table.find((row) => row.method === 'DELETE' && row.path === '/api/articles/:id')).to.include({ auth: 'credentials' });
  });
});

eachDatabase('outside development: no index, no route hints', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await inProduction(() => startApp({ dialect, from: EXAMPLE_APP }));
  });
  after(() => app?.stop());

  it('GET / is a plain 404', async () => {
    const response = await app.get('/');
    expect(response.status).to.equal(404);
    expect(response.body.error.details).to.deep.equal({});
  });

  it('an unknown /api/ path is a plain 404 that names no route (issue 36, finding 7)', async () => {
    const plain = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
    for (const [method, path] of [
      ['GET', '/api/article'],
      ['GET', '/api/articels/3'],
      ['POST', '/api/categorys'],
      ['DELETE', '/api/tags/1/extra'],
    ]) {
      const response = await app.request(method, path, method === 'POST' ? { body: { data: {} } } : {});
      expect(response.status, path).to.equal(404);
      expect(response.body, path).to.deep.equal(plain);
    }
  });
});

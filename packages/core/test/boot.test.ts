import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

eachDatabase('example app boots and serves', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
  });
  after(() => app.stop());

  it('answers an empty list with page meta', async () => {
    const response = await app.get('/api/articles');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await app.get('/api/nope');
    expect(response.status).to.equal(404);
    expect(response.body).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });
});

import { expect } from 'chai';
import { eachDatabase, EXAMPLE_APP, startApp, type TestApp } from '@tessera/testing';

const errorBody = (message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });

eachDatabase('strict parameters: typos are a 400 with the closest valid key', (dialect) => {
  let strict: TestApp;
  let lax: TestApp;
  before(async () => {
    strict = await startApp({ dialect, from: EXAMPLE_APP, config: { api: { rest: { strictParams: true } } } });
    lax = await startApp({ dialect, from: EXAMPLE_APP });
  });
  after(async () => {
    await strict.stop();
    await lax.stop();
  });

  it('rejects unknown pagination keys, suggesting the nearest', async () => {
    const cases: Array<[string, string]> = [
      ['pagination[pagesize]=2', 'Invalid parameter pagination[pagesize]: did you mean pageSize?'],
      ['pagination[pge]=2', 'Invalid parameter pagination[pge]: did you mean page?'],
      ['pagination[withcount]=false', 'Invalid parameter pagination[withcount]: did you mean withCount?'],
      ['pagination[limt]=5', 'Invalid parameter pagination[limt]: did you mean limit?'],
      ['pagination[size]=5', 'Invalid parameter pagination[size]'],
    ];
    for (const [query, message] of cases) {
      const response = await strict.get(`/api/articles?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body, query).to.deep.equal(errorBody(message));
    }
    const valid = await strict.get('/api/articles?pagination[page]=1&pagination[pageSize]=2&pagination[withCount]=false');
    expect(valid.status).to.equal(200);
    expect(valid.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 2 });
  });

  it('rejects unknown populate attributes and populate options, suggesting the nearest', async () => {
    const cases: Array<[string, string]> = [
      ['populate[categroy]=true', 'Invalid parameter categroy: did you mean category?'],
      ['populate=tgas', 'Invalid parameter tgas: did you mean tags?'],
      ['populate[category][feilds][0]=name', 'Invalid parameter feilds: did you mean fields?'],
      ['populate[tags][populate][articels]=true', 'Invalid parameter articels: did you mean articles?'],
      ['populate[category][where][name]=x', 'Invalid parameter where'],
    ];
    for (const [query, message] of cases) {
      const response = await strict.get(`/api/articles?${query}`);
      expect(response.body, query).to.deep.equal(errorBody(message));
    }
    expect((await strict.get('/api/articles?populate[category][fields][0]=name&populate[tags][count]=true')).status).to.equal(200);
  });

  it('suggests fields (always a 400) and top-level parameters (strict only)', async () => {
    expect((await strict.get('/api/articles?fields[0]=titel')).body).to.deep.equal(errorBody('Invalid parameter titel: did you mean title?'));
    expect((await lax.get('/api/articles?fields[0]=titel')).body).to.deep.equal(errorBody('Invalid parameter titel: did you mean title?'));
    expect((await strict.get('/api/articles?filter[title]=x')).body).to.deep.equal(errorBody('Invalid parameter filter: did you mean filters?'));
  });

  it('lax mode still ignores unknown pagination keys and populate options', async () => {
    const response = await lax.get('/api/articles?pagination[pagesize]=2&populate[category][feilds][0]=name&filter[title]=x');
    expect(response.status).to.equal(200);
    expect(response.body.meta.pagination.pageSize).to.equal(25);
  });
});

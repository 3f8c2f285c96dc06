/**
 * The OpenAPI document: valid OpenAPI 3.1 (checked by
 * @seriousme/openapi-schema-validator), served at /api/openapi.json in
 * development, and true: real answers of the seeded example app — lists,
 * pages, populate trees, components, dynamic zones, media, writes and the
 * error envelope — validate against the schema of their route and status.
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { eachDatabase, EXAMPLE_APP, inProduction, startApp, type TestApp } from '@tessera/testing';

type Document = {
  paths: Record<string, Record<string, { parameters: Array<{ in: string; name: string }>; responses: Record<string, { content?: { 'application/json'?: { schema: { $ref?: string } } } }> }>>;
};

/** The operation of the document serving `method path` (templates match any one segment). */
function operationFor(document: Document, method: string, path: string) {
  const bare = path.split('?')[0]!;
  for (const [template, operations] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(bare) && operations[method.toLowerCase()]) return operations[method.toLowerCase()]!;
  }
  return undefined;
}

const READS = [
  '/api/articles', '/api/articles?pagination[pageSize]=5', '/api/articles?pagination[page]=2&pagination[pageSize]=3',
  '/api/articles?pagination[start]=2&pagination[limit]=4', '/api/articles?sort=title:desc', '/api/articles?fields[0]=title&fields[1]=views',
  '/api/articles?populate=*', '/api/articles?populate[category]=true', '/api/articles?populate[tags][fields][0]=name',
  '/api/articles?populate[author][populate]=*', '/api/articles?populate[seo]=true', '/api/articles?populate[cover]=true',
  '/api/articles?filters[title][$containsi]=a', '/api/articles?filters[category][name][$eq]=News', '/api/articles?populate[tags][count]=true',
  '/api/articles?pagination[withCount]=false', '/api/articles/1', '/api/articles/1?populate=*', '/api/articles/2?populate[category][populate]=articles',
  '/api/categories', '/api/categories?populate=*', '/api/categories/1?populate=articles', '/api/tags', '/api/tags?populate=*', '/api/tags/1',
  '/api/writers', '/api/writers?populate=*', '/api/writers/1?populate[articles][fields][0]=title', '/api/homepage', '/api/homepage?populate=*',
  '/api/pages', '/api/pages?populate=*', '/api/pages/1?populate[content][populate]=*&populate[links]=true',
  // Errors: the envelope, on each status the API gives.
  '/api/articles/9999', '/api/articles?filters[nope][$eq]=1', '/api/articles?pagination[page]=x', '/api/articles?sort=nope',
  '/api/writer-profiles', '/api/users/me', '/api/users', '/api/upload/files', '/api/articles?populate[nope]=true', '/api/homepage?filters[title]=x',
];

eachDatabase('OpenAPI document', (dialect) => {
  let app: TestApp;
  let document: Document;
  let ajv: Ajv2020;
  let saved: string | undefined;
  let savedMode: string | undefined;
  before(async () => {
    [saved, savedMode] = [process.env.SEED, process.env.NODE_ENV];
    delete process.env.SEED; // the example's sample blog: entries for every shape
    process.env.NODE_ENV = 'development';
    try {
      app = await startApp({ dialect, from: EXAMPLE_APP });
    } finally {
      if (savedMode === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = savedMode;
    }
    const served = await app.get('/api/openapi.json');
    expect(served.status).to.equal(200);
    document = served.body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'openapi' });
  });
  after(async () => {
    if (saved === undefined) delete process.env.SEED;
    else process.env.SEED = saved;
    await app?.stop();
  });

  /** Validates one answer against its route's schema for its status; returns the status. */
  function conforms(method: string, path: string, status: number, body: unknown): void {
    const operation = operationFor(document, method, path);
    expect(operation, `${method} ${path} is in the document`).not.to.equal(undefined);
    const response = operation!.responses[String(status)];
    expect(response, `${method} ${path} documents status ${status}`).not.to.equal(undefined);
    const schema = response!.content?.['application/json']?.schema;
    expect(schema, `${method} ${path} ${status} has a JSON schema`).not.to.equal(undefined);
    const valid = ajv.validate(schema!.$ref ? { $ref: `openapi${schema!.$ref}` } : schema!, body);
    expect(valid, `${method} ${path} → ${status}: ${ajv.errorsText(ajv.errors, { separator: '\n' })}`).to.equal(true);
  }

  it('is a valid OpenAPI 3.1 document that lists every mounted route, /graphql included', async () => {
    const result = await new Validator().validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
    expect(Object.keys(document.paths)).to.include.members(['/api/articles', '/api/articles/{id}', '/api/homepage', '/api/auth/local', '/api/upload', '/graphql']);
    const article = (document.paths['/api/articles'] as Record<string, Record<string, unknown>>).get!;
    expect(article).to.include({ 'x-tessera-action': 'api::article.article.find', 'x-tessera-public': true });
    expect((document.paths['/api/articles'] as Record<string, Record<string, unknown>>).post).to.include({ 'x-tessera-action': 'api::article.article.create', 'x-tessera-public': false });
  });

  it('has one templated path per shape (OpenAPI 3.1), each operation naming its path parameters as its template does', () => {
    const shapes = new Map<string, string[]>();
    for (const template of Object.keys(document.paths)) {
      const shape = template.replace(/\{[^}]*\}/g, '{}');
      shapes.set(shape, [...(shapes.get(shape) ?? []), template]);
    }
    expect([...shapes.values()].filter((templates) => templates.length > 1)).to.deep.equal([]);
    for (const [template, operations] of Object.entries(document.paths)) {
      const names = [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name), `${method} ${template}`).to.deep.equal(names);
      }
    }
    // users-permissions' GET /roles/:id and PUT|DELETE /roles/:role are one path: both are the role's id.
    expect(Object.keys(document.paths).filter((template) => template.startsWith('/api/users-permissions/roles/'))).to.deep.equal(['/api/users-permissions/roles/{id}']);
    expect(Object.keys(document.paths['/api/users-permissions/roles/{id}']!).sort()).to.deep.equal(['delete', 'get', 'put']);
  });

  it('describes what the app answers: 50+ real responses validate against it', async () => {
    const token = await app.fullAccessToken();
    let checked = 0;
    for (const path of READS) {
      for (const auth of [undefined, token]) {
        const response = await app.get(path, { token: auth });
        conforms('GET', path, response.status, response.body);
        checked++;
      }
    }
    const created = await app.post('/api/tags', { data: { name: 'openapi-tag' } }, { token });
    conforms('POST', '/api/tags', created.status, created.body);
    expect(created.status).to.equal(200);
    const updated = await app.put(`/api/tags/${created.body.data.id}`, { data: { name: 'openapi-tag-2' } }, { token });
    conforms('PUT', '/api/tags/1', updated.status, updated.body);
    const invalid = await app.post('/api/articles', { data: { views: 'many' } }, { token });
    conforms('POST', '/api/articles', invalid.status, invalid.body);
    const forbidden = await app.post('/api/tags', { data: { name: 'anonymous' } });
    conforms('POST', '/api/tags', forbidden.status, forbidden.body);
    const home = await app.put('/api/homepage', { data: { title: 'Home' } }, { token });
    conforms('PUT', '/api/homepage', home.status, home.body);
    const deleted = await app.delete(`/api/tags/${created.body.data.id}`, { token });
    conforms('DELETE', '/api/tags/1', deleted.status, deleted.body);
    checked += 6;
    expect(checked).to.be.at.least(50);
  });

  it('is not served in production unless api.openapi.enabled', async () => {
    const production = await inProduction(() => startApp({ dialect, from: EXAMPLE_APP }));
    try {
      expect((await production.get('/api/openapi.json')).status).to.equal(404);
    } finally {
      await production.stop();
    }
    const enabled = await inProduction(() => startApp({ dialect, from: EXAMPLE_APP, files: { 'config/api.ts': 'export default { rest: { defaultLimit: 25, maxLimit: 100 }, openapi: { enabled: true } };' } }));
    try {
      expect((await enabled.get('/api/openapi.json')).body.openapi).to.equal('3.1.0');
    } finally {
      await enabled.stop();
    }
  });
});

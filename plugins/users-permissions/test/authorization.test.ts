/**
 * One authorization path for REST and GraphQL (core auth/authorize.ts): the
 * same requests sent to the reference Strapi 4.26.2 and to Tessera, with
 * Strapi's recorded answers (strapi-authorization.json) as the expected ones,
 * byte for byte: first with a public role that grants something, then with
 * a public role holding no permission at all (anonymous callers are no
 * caller: a 401 before anything GraphQL, `auth: false` resolvers and
 * unparsable documents too). The caller is authenticated once per request,
 * counted on the kernel's one entry point.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase, type TestApp, type TestResponse } from '@tessera/testing';
import { register, startUpApp } from './fixture';

interface RecordedExchange {
  what: string;
  request: { method: 'GET' | 'POST'; path: string; credential: 'none' | 'invalid' | 'jwt'; query?: string };
  status: number;
  body: unknown;
}

const RECORDED = JSON.parse(fs.readFileSync(path.join(__dirname, 'strapi-authorization.json'), 'utf8')) as {
  publicRoleWithPermissions: RecordedExchange[];
  emptyPublicRole: RecordedExchange[];
};

const ARTICLE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
};

/** Counts authentications (the kernel's `authenticate`, the one entry point): one per request whatever the transport. */
const COUNTING_AUTHENTICATE = `module.exports = { register({ strapi }) {
  globalThis.__authentications = 0;
  const authenticate = strapi.authenticate.bind(strapi);
  strapi.authenticate = (header) => { globalThis.__authentications += 1; return authenticate(header); };
} };\n`;

declare global {
  // eslint-disable-next-line no-var
  var __authentications: number;
}

async function send(app: TestApp, exchange: RecordedExchange, jwt: string): Promise<TestResponse> {
  const { method, path: route, credential, query } = exchange.request;
  const token = credential === 'jwt' ? jwt : credential === 'invalid' ? 'not-a-token' : undefined;
  if (method === 'GET') return app.get(query === undefined ? route : `${route}?query=${encodeURIComponent(query)}`, { token });
  return app.post(route, { query }, { token });
}

eachDatabase('authorization: REST and GraphQL answer as Strapi 4.26.2, through one decision', (dialect) => {
  let app: TestApp;
  let jwt: string;
  before(async () => {
    app = await startUpApp(dialect, {
      graphql: true,
      permissions: { public: ['api::article.article.find', 'api::article.article.findOne'] },
      files: { 'src/api/article/content-types/article/schema.json': ARTICLE_SCHEMA, 'src/index.js': COUNTING_AUTHENTICATE },
    });
    ({ jwt } = await register(app, 'reader'));
  });
  after(() => app?.stop());

  for (const exchange of RECORDED.publicRoleWithPermissions) {
    it(`public role with permissions: ${exchange.what} (${exchange.request.method} ${exchange.request.path})`, async () => {
      const response = await send(app, exchange, jwt);
      expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.body]);
    });
  }

  it('the caller is authenticated once per request, on REST and GraphQL alike', async () => {
    const full = await app.fullAccessToken();
    for (const request of [() => app.get('/api/articles', { token: full }), () => app.post('/graphql', { query: '{ articles { data { id } } }' }, { token: full })]) {
      globalThis.__authentications = 0;
      expect((await request()).status).to.equal(200);
      expect(globalThis.__authentications).to.equal(1);
    }
  });

  describe('a public role with no permission at all', () => {
    before(async () => {
      await app.app.db.query('plugin::users-permissions.permission').deleteMany({ where: { role: { type: 'public' } } });
    });

    for (const exchange of RECORDED.emptyPublicRole) {
      it(`${exchange.what} (${exchange.request.method} ${exchange.request.path})`, async () => {
        const response = await send(app, exchange, jwt);
        expect([response.status, response.body]).to.deep.equal([exchange.status, exchange.body]);
      });
    }
  });
});

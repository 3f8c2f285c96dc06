/**
 * The frontend corpus (test/frontend-corpus/*.json): requests exactly as real
 * Strapi v4 frontends build them — FoodAdvisor's client, the official
 * corporate starter, the next-blog starter — run against an app with the
 * frontend's own schema files and a seed, on each database. Each answers the
 * status and shape the corpus expects and, where Strapi 4.26.2 was recorded
 * on the same schemas and seed, the same status and the same body shape
 * (keys, types, list lengths) as Strapi.
 */
import { expect } from 'chai';
import qs from 'qs';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import {
  checkExpectation, comparedBody, contentTypeKinds, corpusFiles, jwtOf, localesBootstrap, PNG, readCorpus, schemaFiles, seedCorpus, shapeOf, type Corpus, type Sender,
} from './frontend-corpus/corpus';

// The plugins of the Strapi app the answers were recorded on (content-type-builder is internal to Strapi).
const PLUGINS = {
  'users-permissions': { enabled: true, config: { jwtSecret: 'corpus-test-secret' } },
  upload: { enabled: true },
  i18n: { enabled: true },
  'content-type-builder': { enabled: true },
  graphql: { enabled: true, config: { endpoint: '/graphql', shadowCRUD: true, depthLimit: 10, amountLimit: 100 } },
};

function publicActions(corpus: Corpus): string[] {
  const kinds = contentTypeKinds(corpus);
  return corpus.public.flatMap((name) => {
    const uid = `api::${name}.${name}`;
    return kinds.get(name) === 'singleType' ? [`${uid}.find`] : [`${uid}.find`, `${uid}.findOne`];
  });
}

function sender(app: TestApp, token: string): Sender {
  const send = (async (method: string, pathAndQuery: string, body: unknown) => {
    const response = await app.request(method, pathAndQuery, { body, token });
    return { status: response.status, text: response.text };
  }) as Sender;
  send.upload = async (name: string) => {
    const form = new FormData();
    form.append('files', new Blob([PNG], { type: 'image/png' }), name);
    const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, text: await response.text() };
  };
  return send;
}

for (const file of corpusFiles()) {
  const corpus = readCorpus(file);
  eachDatabase(`frontend corpus: ${corpus.repo} (${corpus.requests.length} requests)`, (dialect) => {
    let app: TestApp;
    let token: string;
    // The JWT of the latest answer that held one (register, login), sent where a request says `auth: 'jwt'`.
    let jwt: string | undefined;

    before(async () => {
      app = await startApp({
        dialect,
        files: {
          ...schemaFiles(corpus),
          'src/index.js': localesBootstrap(corpus),
          'config/permissions.ts': `export default { public: ${JSON.stringify(publicActions(corpus))} };\n`,
        },
        config: { plugins: PLUGINS },
      });
      token = await app.fullAccessToken();
      await seedCorpus(corpus, sender(app, token));
    });
    after(() => app.stop());

    for (const request of corpus.requests) {
      const status = request.tessera?.status ?? request.status;
      it(`${request.source}: ${request.method ?? 'GET'} ${request.path} → ${status}`, async () => {
        if (request.params) {
          const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?') + 1) : '';
          if (corpus.stringify === 'sdk') {
            // The SDK's own serializer: the URL must carry exactly the frontend's object.
            expect(qs.parse(query), 'the URL the frontend builds').to.deep.equal(qs.parse(qs.stringify(request.params)));
          } else {
            expect(query, 'the URL the frontend builds').to.equal(qs.stringify(request.params, { encodeValuesOnly: corpus.stringify === 'qs-values' }));
          }
        }
        const bearer = request.auth === 'token' ? token : request.auth === 'jwt' ? jwt : undefined;
        const response = await app.request(request.method ?? 'GET', request.path, { body: request.body, token: bearer });
        jwt = jwtOf(response.text) ?? jwt;
        expect(response.status, response.text.slice(0, 500)).to.equal(status);
        const wrong = Object.entries(request.expect).map(([dotted, expected]) => checkExpectation(response.body, dotted, expected)).filter((problem) => problem !== null);
        expect(wrong, response.text.slice(0, 2000)).to.deep.equal([]);
        // Strapi's answer on the same schemas and seed; where 4.26 drops what an earlier 4.x understood, its answer to the same meaning.
        const strapi = request.equivalent ? request.equivalent.strapi : request.strapi;
        if (strapi && !request.tessera) {
          expect(strapi.status, `Strapi ${corpus.strapiVersion} answered`).to.equal(request.status);
          expect(shapeOf(comparedBody(request, response.body)), `the shape of Strapi ${corpus.strapiVersion}'s answer`).to.deep.equal(strapi.shape);
        }
      });
    }
  });
}

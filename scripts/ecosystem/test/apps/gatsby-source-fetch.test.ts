import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { npmInstall, registryUnreachable } from './app-folder';

/**
 * gatsby-source-strapi's fetch layer (3.3.3, from npm), driven through its modules as its `sourceNodes` drives them
 * against the example app: the model from the content-type builder's content API first (on in every app, as on
 * Strapi), the endpoints its config names (`getEndpoints`), every page of a collection type (`fetchEntities`, with a
 * `queryLimit` small enough to page), a single type (`fetchEntity`, where a 404 is no entry), and its cleaning of v4
 * answers into Gatsby's nodes.
 */
const GATSBY_SOURCE = 'gatsby-source-strapi@3.3.3';

type Reporter = { info(message: string): void; panic(message: string, error?: unknown): never };
type Endpoint = { uid: string; endpoint: string; kind: string; queryParams: object; pluginOptions?: object };
type Context = { reporter: Reporter; axiosInstance: unknown; schemas: unknown[]; strapiConfig: object };

describe("Strapi ecosystem: gatsby-source-strapi's fetch layer on the example app", function () {
  this.timeout(600_000);
  let load: (name: string) => unknown;
  let dir: string;

  before(function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-gatsby-'));
    npmInstall(dir, [GATSBY_SOURCE]);
    load = createRequire(path.join(dir, 'index.js'));
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  eachDatabase('gatsby-source-strapi', (dialect) => {
    let app: TestApp;
    let token: string;
    before(async () => {
      app = await startApp({ dialect, from: EXAMPLE_APP });
      token = await app.fullAccessToken();
      const categories: number[] = [];
      for (const name of ['Gatsby A', 'Gatsby B']) {
        categories.push(((await app.post('/api/categories', { data: { name } }, { token })).body as { data: { id: number } }).data.id);
      }
      for (let index = 1; index <= 5; index++) {
        const data = { title: `Gatsby post ${index}`, category: categories[index % 2], publishedAt: '2026-01-02T03:04:05.000Z' };
        expect((await app.post('/api/articles', { data }, { token })).status).to.equal(200);
      }
    });
    after(() => app.stop());

    it('reads the model, then every page of each collection type and the single type, as its sourceNodes does', async () => {
      const { createAxiosInstance } = load('gatsby-source-strapi/dist/axios-instance') as { createAxiosInstance(config: object): unknown };
      const fetching = load('gatsby-source-strapi/dist/fetch') as {
        fetchStrapiContentTypes(axios: unknown): Promise<{ schemas: Array<{ uid: string }> }>;
        fetchEntities(endpoint: Endpoint, context: Context): Promise<Array<Record<string, unknown>>>;
        fetchEntity(endpoint: Endpoint, context: Context): Promise<Array<Record<string, unknown>>>;
      };
      const { getEndpoints } = load('gatsby-source-strapi/dist/helpers') as { getEndpoints(config: object, schemas: unknown[]): Endpoint[] };
      const infos: string[] = [];
      const reporter: Reporter = {
        info: (message) => infos.push(message),
        panic: (message, error) => {
          throw error instanceof Error ? error : new Error(message);
        },
      };
      const strapiConfig = { apiURL: app.url, accessToken: token, collectionTypes: [{ singularName: 'article', queryLimit: 2 }, 'category'], singleTypes: ['homepage'] };
      const axiosInstance = createAxiosInstance(strapiConfig);
      const { schemas } = await fetching.fetchStrapiContentTypes(axiosInstance);
      expect(schemas.map((schema) => schema.uid)).to.include.members(['api::article.article', 'api::category.category', 'api::homepage.homepage']);

      const endpoints = getEndpoints(strapiConfig, schemas);
      expect(endpoints.map(({ uid, endpoint, kind }) => ({ uid, endpoint, kind }))).to.deep.equal([
        { uid: 'api::article.article', endpoint: '/api/articles', kind: 'collectionType' },
        { uid: 'api::category.category', endpoint: '/api/categories', kind: 'collectionType' },
        { uid: 'api::homepage.homepage', endpoint: '/api/homepage', kind: 'singleType' },
      ]);
      const context: Context = { reporter, axiosInstance, schemas, strapiConfig };
      const [articles, categories, homepage] = await Promise.all(
        endpoints.map((endpoint) => (endpoint.kind === 'singleType' ? fetching.fetchEntity(endpoint, context) : fetching.fetchEntities(endpoint, context))),
      );
      // Five articles over three pages of two, cleaned into Gatsby's shape (no `attributes`, relations flattened).
      expect(infos.filter((line) => line.startsWith('Starting to fetch page'))).to.have.length(2);
      expect(articles.map((article) => [article.title, (article.category as { name: string }).name]).sort()).to.deep.equal([
        ['Gatsby post 1', 'Gatsby B'],
        ['Gatsby post 2', 'Gatsby A'],
        ['Gatsby post 3', 'Gatsby B'],
        ['Gatsby post 4', 'Gatsby A'],
        ['Gatsby post 5', 'Gatsby B'],
      ]);
      expect(articles.every((article) => !('attributes' in article))).to.equal(true);
      expect(categories.map((category) => category.name).sort()).to.deep.equal(['Gatsby A', 'Gatsby B']);
      // No homepage entry yet: Strapi's 404, which the plugin reads as none.
      expect(homepage).to.deep.equal([]);
    });
  });
});

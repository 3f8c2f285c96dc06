/**
 * @strapi/plugin-documentation: at bootstrap it generates the app's OpenAPI
 * document (src/extensions/documentation/documentation/<version>/
 * full_documentation.json) from the content types and every content-API
 * router (`strapi.api[name].routes`, `strapi.plugin(name).routes`). Its
 * Swagger pages are admin-type routes marked `auth: false`, which Strapi
 * serves to anyone at `/documentation/…`, and so does Tessera; its admin-panel
 * routes (`getInfos`, `regenerateDoc`) are not served.
 * The app lists `@strapi/strapi` and `@strapi/plugin-users-permissions`, as
 * every Strapi app does (the plugin documents upload and users-permissions).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

export const DOCUMENTATION: EcosystemSuite = {
  title: '@strapi/plugin-documentation@4.26.2',
  packages: { '@strapi/plugin-documentation': '4.26.2', '@strapi/strapi': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2' },
  files: ARTICLE_APP,
  tests: {
    "generates the OpenAPI document of the app's content API at boot": async (app) => {
      const file = path.join(app.app.dir, 'src/extensions/documentation/documentation/1.0.0/full_documentation.json');
      const document = JSON.parse(fs.readFileSync(file, 'utf8')) as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
      expect(document.openapi).to.equal('3.0.0');
      expect(document.info.version).to.equal('1.0.0');
      // The app's routes (core routers), with their methods, and the plugins' content-API routes.
      expect(Object.keys(document.paths)).to.include.members(['/articles', '/articles/{id}', '/categories', '/categories/{id}', '/users', '/users/me', '/upload/files']);
      expect(Object.keys(document.paths['/articles']).sort()).to.deep.equal(['get', 'post']);
      expect(Object.keys(document.paths['/articles/{id}']).sort()).to.deep.equal(['delete', 'get', 'put']);
      expect(document.components.schemas).to.include.keys('ArticleRequest', 'ArticleListResponse', 'ArticleResponse', 'CategoryListResponse');
    },
    'serves its Swagger page and the document to anyone, at /documentation, and not its admin-panel routes': async (app) => {
      const file = path.join(app.app.dir, 'src/extensions/documentation/documentation/1.0.0/full_documentation.json');
      const document = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      for (const url of ['/documentation/openapi.json', '/documentation/v1.0.0/openapi.json']) {
        const answer = await app.get(url);
        expect([answer.status, answer.headers.get('content-type')], url).to.deep.equal([200, 'application/json; charset=utf-8']);
        expect(answer.body, url).to.deep.equal(document);
      }
      for (const url of ['/documentation', '/documentation/v1.0.0']) {
        const page = await app.get(url);
        expect([page.status, page.headers.get('content-type')], url).to.deep.equal([200, 'text/html; charset=utf-8']);
        expect(page.text, url).to.include('SwaggerUIBundle').and.to.include('"/articles/{id}"');
      }
      expect((await app.get('/documentation/v9.9.9/openapi.json')).status).to.equal(400);
      expect((await app.get('/documentation/getInfos')).status).to.equal(404);
      expect((await app.post('/documentation/regenerateDoc', {})).status).to.equal(404);
    },
  },
};

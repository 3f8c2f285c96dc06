/**
 * @strapi/plugin-documentation: at bootstrap it generates the app's OpenAPI
 * document (src/extensions/documentation/documentation/<version>/
 * full_documentation.json) from the content types and every content-API
 * router (`strapi.api[name].routes`, `strapi.plugin(name).routes`). Its
 * Swagger pages are admin-type routes, which Tessera does not serve.
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
  },
};

/**
 * docs/admin-panel.md's table of Strapi 4.26.2's admin routes, held to reality: Strapi's list (admin-routes/*.tsv,
 * checked against what a community-edition peer mounts), the verdicts (admin-routes/verdicts.ts), the example app's
 * mounted routes, and the answers a community-edition Strapi gives (to a signed-in admin and to no credentials) where
 * Tessera answers as one (admin-routes/strapi-4.26.2-ce-answers.json, scripts/strapi-peer/record-ce-answers.js).
 *
 * The example app boots with the two dependencies every new Strapi 4.26.2 app has beside users-permissions
 * (`@strapi/strapi`, which brings upload and email, and `@strapi/plugin-i18n`): the plugin set of the peer the
 * answers were recorded on, so each of Strapi's admin plugins is present to be judged.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { routeTable } from '@tessera/core';
import { eachDatabase, EXAMPLE_APP, startApp, type TestApp, type TestDialect } from '@tessera/testing';
import RECORDED from './admin-routes/strapi-4.26.2-ce-answers.json';
import { ceMounted, routeKey, strapiAdminRoutes } from './admin-routes/reference';
import { readDoc, renderTable, tableInDoc } from './admin-routes/render';
import { RULES, ruleOf, verdictOf } from './admin-routes/verdicts';

const INDEX = '<!doctype html><html lang="en"><head><title>Strapi Admin</title></head><body><div id="strapi"></div></body></html>';
const REFERENCE = strapiAdminRoutes();
const keyOf = (route: { method: string; path: string }): string => routeKey(route.method, route.path);
/** The plugins whose admin routes Strapi 4.26.2 has: an admin route Tessera mounts for one of them must be listed. */
const STRAPI_ADMIN_PLUGINS = new Set(REFERENCE.map((route) => route.plugin));

/**
 * Tessera's answer where Strapi answered 405 "Method Not Allowed" (a bare text from its koa router). Under `/admin`
 * the same 405, in the admin error envelope: the panel's route takes only GET there, as Strapi's does. Elsewhere
 * Strapi's 405 comes from its public-folder route, which takes a GET on every path, so any unknown path answers
 * 405 to another method; Tessera serves `public/` without a route, and an unknown path is a 404 whatever the method.
 */
function refusal(requestPath: string): { data: null; error: { status: number; name: string; message: string; details: object } } {
  return requestPath.startsWith('/admin/')
    ? { data: null, error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} } }
    : { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
}

/** A concrete path for a route: each parameter 1, a regular-expression group its first choice. */
const concrete = (route: string): string => route.replace(/\((\w+)\|[^)]*\)/g, '$1').replace(/:\w+/g, '1');

/** What a route Tessera does not have answers: the panel's page for a GET under `/admin`, else a refusal. */
function unserved(method: string, requestPath: string): [number, unknown] {
  if (method === 'GET' && requestPath.startsWith('/admin/')) return [200, INDEX];
  const body = refusal(requestPath);
  return [body.error.status, body];
}

function exampleAsStrapiApp(): Record<string, string | object> {
  const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE_APP, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const dependencies = { ...manifest.dependencies, '@strapi/strapi': '4.26.2', '@strapi/plugin-i18n': '4.26.2' };
  return { 'package.json': { ...manifest, dependencies }, 'build/index.html': INDEX };
}

describe('admin route table: Strapi 4.26.2 admin routes, verdicts and the documentation', () => {
  it('lists each route once', () => {
    const keys = REFERENCE.map(keyOf);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).to.deep.equal([]);
    expect(REFERENCE).to.have.length(171);
  });

  it("lists exactly the admin routes a community-edition Strapi 4.26.2 mounts, beside its Enterprise ones", () => {
    const ce = REFERENCE.filter((route) => route.edition === 'ce').map(keyOf).sort();
    expect(ce).to.deep.equal(ceMounted().map(([method, route]) => routeKey(method, route)).sort());
  });

  it('has no rule that matches no route, and answers every Enterprise route as a community edition does', () => {
    expect(RULES.filter((rule) => !REFERENCE.some((route) => ruleOf(route) === rule)).map((rule) => rule.under)).to.deep.equal([]);
    const ee = REFERENCE.filter((route) => route.edition === 'ee');
    expect(ee.filter((route) => verdictOf(route).status !== 'community-edition').map(keyOf)).to.deep.equal([]);
  });

  it('has answers recorded on Strapi, for an admin and for no credentials, for every route answered as community edition', () => {
    const expected = REFERENCE.filter((route) => verdictOf(route).status === 'community-edition').map(keyOf).sort();
    for (const as of ['admin', 'anonymous']) {
      const recorded = RECORDED.exchanges.filter((exchange) => exchange.as === as).map((exchange) => routeKey(exchange.method, exchange.route));
      expect(recorded.sort(), as).to.deep.equal(expected);
    }
  });

  it('is the table docs/admin-panel.md shows (node scripts/admin-route-table.js writes it)', () => {
    expect(tableInDoc(readDoc())).to.equal(renderTable());
  });
});

eachDatabase('admin route table: the example app mounts what the table says', (dialect: TestDialect) => {
  let app: TestApp;
  let jwt: string;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP, files: exampleAsStrapiApp() });
    const registered = await app.post('/admin/register-admin', { email: 'table@example.com', password: 'Password1234', firstname: 'Table', lastname: 'Admin' });
    expect(registered.status).to.equal(200);
    jwt = registered.body.data.token;
  });
  after(() => app?.stop());

  /** The admin routes the app mounts for Strapi's admin plugins, by key. */
  function mountedKeys(): string[] {
    return routeTable(app.app)
      .filter((row) => row.info.type === 'admin' && STRAPI_ADMIN_PLUGINS.has(row.info.pluginName ?? ''))
      .map(keyOf);
  }

  it('mounts every route marked served, and none marked otherwise', () => {
    const mounted = new Set(mountedKeys());
    const served = REFERENCE.filter((route) => verdictOf(route).status === 'served');
    expect(served.filter((route) => !mounted.has(keyOf(route))).map(keyOf), 'marked served, not mounted').to.deep.equal([]);
    const notServed = REFERENCE.filter((route) => verdictOf(route).status === 'not-served');
    expect(notServed.filter((route) => mounted.has(keyOf(route))).map(keyOf), 'marked not served, mounted').to.deep.equal([]);
  });

  it("mounts no admin route of Strapi's plugins that the table lacks", () => {
    const listed = new Set(REFERENCE.map(keyOf));
    expect(mountedKeys().filter((key) => !listed.has(key))).to.deep.equal([]);
  });

  it('answers a signed-in admin on every route it does not serve with the panel page, 405 or 404, never a 500', async () => {
    const notServed = REFERENCE.filter((route) => verdictOf(route).status === 'not-served');
    const answers: Array<[string, string, number, unknown]> = [];
    for (const route of notServed) {
      const url = concrete(route.path);
      const response = await app.request(route.method, url, { token: jwt, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      answers.push([route.method, url, response.status, response.status === 200 ? response.text : response.body]);
    }
    expect(answers).to.deep.equal(notServed.map((route) => [route.method, concrete(route.path), ...unserved(route.method, concrete(route.path))]));
  });

  for (const exchange of RECORDED.exchanges) {
    it(`${exchange.method} ${exchange.path} (${exchange.as}): ${exchange.status} as a community-edition Strapi 4.26.2`, async () => {
      const response = await app.request(exchange.method, exchange.path, { token: exchange.as === 'admin' ? jwt : undefined, headers: { accept: 'application/json' }, body: exchange.method === 'GET' || exchange.method === 'DELETE' ? undefined : {} });
      expect(response.status).to.equal(exchange.status === 405 ? refusal(exchange.path).error.status : exchange.status);
      if (exchange.contentType === 'text/html') {
        expect([response.headers.get('content-type'), response.text]).to.deep.equal(['text/html; charset=utf-8', INDEX]);
      } else if (exchange.status === 405) {
        expect(response.body).to.deep.equal(refusal(exchange.path));
      } else {
        expect(response.body).to.deep.equal(exchange.body);
      }
    });
  }
});

/**
 * The Enterprise-only admin routes a Strapi 4.26.2 panel may call (`/admin/license-limit-information`,
 * `/admin/providers/options`, SSO's `/admin/providers…`): a community-edition Strapi has no such routes, so a GET
 * under `/admin` is its panel page and any other method is 405 (recorded on the peer with its panel served,
 * recorded/strapi-4.26.2-ce-leftovers.json). Tessera answers the same, from the served build, and asks no other host.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import { ADMIN_APP_FILES } from './fixture';
import RECORDED from './recorded/strapi-4.26.2-ce-leftovers.json';

const INDEX = '<!doctype html><html lang="en"><head><title>Strapi Admin</title></head><body><div id="strapi"></div></body></html>';

describe('admin: the Enterprise-only routes answered as a community edition answers them [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: { ...ADMIN_APP_FILES, 'build/index.html': INDEX }, config: { admin: { auth: { secret: 'ce-leftovers-secret' } } } });
  });
  after(() => app?.stop());

  for (const exchange of RECORDED.exchanges) {
    it(`${exchange.method} ${exchange.path}: ${exchange.status} ${exchange.contentType}, as Strapi 4.26.2 CE`, async () => {
      const response = await app.request(exchange.method, exchange.path, { body: 'body' in exchange ? exchange.body : undefined, headers: { accept: 'application/json' } });
      expect(response.status).to.equal(exchange.status);
      if (exchange.status === 200) {
        expect(response.headers.get('content-type')).to.equal(`${exchange.contentType}; charset=utf-8`);
        expect(response.text).to.equal(INDEX);
      } else {
        // Strapi's koa answers a bare text; Tessera's refusals keep the admin error envelope.
        expect(response.body).to.deep.equal({ data: null, error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} } });
      }
    });
  }
});

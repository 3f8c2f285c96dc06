/**
 * `require('@strapi/plugin-<name>/strapi-server')` in Strapi code, for each
 * Strapi plugin Tessera implements: Tessera's plugin in Strapi's format (a
 * function returning the definition), even where nothing of Strapi is
 * installed. Each call answers its own maps, and a factory given Strapi's
 * `{ strapi }` alone makes the app's service: a JWT issued by the
 * users-permissions service made so is accepted by `/api/users/me`.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const PLUGINS = ['content-type-builder', 'email', 'graphql', 'i18n', 'upload', 'users-permissions'];

/** App code: requires each package's strapi-server and reports what it found. */
const APP_INDEX = `'use strict';
const names = ${JSON.stringify(PLUGINS)};
module.exports = {
  async bootstrap({ strapi }) {
    const found = {};
    for (const name of names) {
      const server = require('@strapi/plugin-' + name + '/strapi-server');
      const first = server();
      const second = server();
      found[name] = {
        exportsFunction: typeof server === 'function',
        services: Object.keys(first.services || {}).sort(),
        ownMaps: ['services', 'controllers', 'routes', 'contentTypes'].every((key) => first[key] === undefined || first[key] !== second[key]),
      };
      // Strapi code mutating what it got: the running plugin keeps its own.
      if (first.services) first.services.injected = () => ({});
    }
    const jwt = require('@strapi/plugin-users-permissions/strapi-server')().services.jwt({ strapi });
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    const user = await strapi.db.query('plugin::users-permissions.user').create({
      data: { username: 'ada', email: 'ada@example.com', provider: 'local', confirmed: true, blocked: false, role: role.id },
    });
    strapi.config.set('test.strapiServer', { found, token: jwt.issue({ id: user.id }) });
  },
};
`;

eachDatabase('core: @strapi/plugin-<name>/strapi-server answers Tessera\'s plugins', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'package.json': { name: 'strapi-app', private: true, dependencies: Object.fromEntries(PLUGINS.map((name) => [`@strapi/plugin-${name}`, '4.26.2'])) },
        'config/plugins.js': `module.exports = { graphql: { enabled: true } };\n`,
        'src/index.js': APP_INDEX,
      },
    });
  });
  after(() => app?.stop());

  it("each is a function answering the plugin's definition with its own maps; a factory given { strapi } serves the app", async () => {
    const { found, token } = app.app.config.get<{ found: Record<string, { exportsFunction: boolean; services: string[]; ownMaps: boolean }>; token: string }>('test.strapiServer');
    for (const name of PLUGINS) {
      expect(found[name].exportsFunction, name).to.equal(true);
      expect(found[name].ownMaps, name).to.equal(true);
      const running = Object.keys(app.app.plugin(name)!.services).sort();
      expect(found[name].services, name).to.deep.equal(running.filter((service) => service !== 'injected'));
      expect(running, name).to.not.include('injected');
    }
    expect(found.upload.services).to.include.members(['image-manipulation', 'upload']);
    const me = await app.get('/api/users/me', { token });
    expect(me.status, JSON.stringify(me.body)).to.equal(200);
    expect(me.body).to.deep.include({ username: 'ada', email: 'ada@example.com' });
  });
});

import { expect } from 'chai';
import { App } from '@tessera/core';
import { callingPackage } from '@tessera/core/dist/src/strapi/reload';
import { startApp, type TestApp } from '@tessera/testing';

/**
 * `strapi.reload()`. Strapi 4.26.2, recorded with a loaded app outside `strapi develop` (NODE_ENV=production):
 * `{"autoReload":false,"answer":"undefined","isReloading":false,"isWatching":true}` — the call does nothing, so a
 * plugin that created content types and reloaded serves routes whose types never exist (its 500s). Tessera refuses
 * that call with an error naming the caller and what to do; under `tessera develop` (an app given `restart`) it
 * restarts, as Strapi's develop does (packages/cli/test/develop-reload.test.ts).
 */
const STRAPI_OUTSIDE_DEVELOP = { strapi: '4.26.2', autoReload: false, answer: undefined, isReloading: false, isWatching: true };

describe('strapi.reload() [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: {} });
  });
  after(() => app.stop());

  it("outside tessera develop: refused, naming the caller and what to do (Strapi's does nothing)", () => {
    expect(app.app.reload.isWatching).to.equal(STRAPI_OUTSIDE_DEVELOP.isWatching);
    expect(() => app.app.reload()).to.throw(
      "strapi.reload() was called by the app's code: only `tessera develop` restarts an app. It usually follows creating content types at run time (through the content-type builder); in production, create them in development, commit the schema files, and deploy.",
    );
    expect(app.app.reload.isReloading).to.equal(STRAPI_OUTSIDE_DEVELOP.isReloading);
  });

  it('names the package on the stack that called it', () => {
    const stack = [
      'Error',
      '    at reload (/app/node_modules/@tessera/core/dist/src/strapi/reload.js:20:5)',
      '    at App.reload (/srv/tessera/packages/core/dist/src/app.js:80:5)',
      '    at Object.createTypes (/app/node_modules/@acme/strapi-plugin-forms/server/services/setup.js:12:13)',
    ].join('\n');
    expect(callingPackage(stack)).to.equal('the plugin @acme/strapi-plugin-forms');
    expect(callingPackage('Error\n    at reload (/app/node_modules/@tessera/core/dist/src/strapi/reload.js:1:1)\n    at make (/app/src/plugins/maker/server/bootstrap.js:3:1)')).to.equal("the app's plugin maker");
    // Only the first caller outside Tessera counts: a plugin further down the stack did not make the call.
    expect(callingPackage('Error\n    at reload (/app/node_modules/@tessera/core/dist/src/strapi/reload.js:1:1)\n    at seed (/app/src/index.js:3:1)\n    at run (/app/node_modules/mocha/lib/runnable.js:1:1)')).to.equal("the app's code");
  });
});

describe('strapi.reload() with a restart (as tessera develop gives one)', () => {
  it('asks for the restart once, and skips the reload after watching was turned off and on (Strapi\'s isWatching)', () => {
    const reasons: string[] = [];
    const app = new App({ dir: '.', restart: (reason) => reasons.push(reason) });
    app.reload();
    expect(reasons).to.deep.equal(["strapi.reload() by the app's code"]);
    expect(app.reload.isReloading).to.equal(true);
    app.reload.isWatching = false;
    app.reload.isWatching = true;
    app.reload();
    expect(reasons).to.have.length(1);
    expect(app.reload.isReloading).to.equal(false);
    app.reload();
    expect(reasons).to.have.length(2);
  });
});

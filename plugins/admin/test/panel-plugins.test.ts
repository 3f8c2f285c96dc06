/**
 * Which plugins' admin sides `tessera build` puts into the panel (panel/admin-plugins.ts), on an app folder of real
 * packages: dependencies that are Strapi plugins with a `strapi-admin` entry (an exports map or the file), local
 * plugins of config/plugins with a `strapi-admin.js`, not the ones config turns off; the stamp follows versions and
 * a local plugin's admin files; and the answer is the same after the kernel's module resolver is installed (an app
 * booted in the same process), which answers `@strapi/plugin-users-permissions/strapi-admin` with its stand-in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startApp } from '@tessera/testing';
import { panelPlugins } from '../src/panel/admin-plugins';

function write(file: string, content: string | object): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
}

describe("the panel's plugins (tessera build)", () => {
  let dir: string;
  const runtime = () => path.join(dir, '.strapi', 'client');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-plugins-'));
    const modules = path.join(dir, 'node_modules');
    write(path.join(dir, 'package.json'), { dependencies: { 'with-exports': '1.0.0', 'with-file': '1.0.0', 'server-only': '1.0.0', 'not-a-plugin': '1.0.0', 'turned-off': '1.0.0', '@strapi/plugin-users-permissions': '4.26.2' } });
    write(path.join(modules, 'with-exports', 'package.json'), { name: 'with-exports', version: '2.1.0', strapi: { kind: 'plugin', name: 'exported' }, exports: { './strapi-admin': './dist/admin.js', './package.json': './package.json' } });
    write(path.join(modules, 'with-exports', 'dist', 'admin.js'), 'module.exports = {};');
    write(path.join(modules, 'with-file', 'package.json'), { name: 'with-file', version: '1.2.3', strapi: { kind: 'plugin', name: 'filed' } });
    write(path.join(modules, 'with-file', 'strapi-admin.js'), 'module.exports = {};');
    write(path.join(modules, 'server-only', 'package.json'), { name: 'server-only', version: '1.0.0', strapi: { kind: 'plugin', name: 'server-only' }, exports: { './strapi-server': './strapi-server.js' } });
    write(path.join(modules, 'not-a-plugin', 'package.json'), { name: 'not-a-plugin', version: '1.0.0' });
    write(path.join(modules, 'not-a-plugin', 'strapi-admin.js'), 'module.exports = {};');
    write(path.join(modules, 'turned-off', 'package.json'), { name: 'turned-off', version: '1.0.0', strapi: { kind: 'plugin', name: 'turned-off' } });
    write(path.join(modules, 'turned-off', 'strapi-admin.js'), 'module.exports = {};');
    write(path.join(modules, '@strapi', 'plugin-users-permissions', 'package.json'), { name: '@strapi/plugin-users-permissions', version: '4.26.2', strapi: { kind: 'plugin', name: 'users-permissions' }, exports: { './strapi-admin': './dist/admin/index.js' } });
    write(path.join(modules, '@strapi', 'plugin-users-permissions', 'dist', 'admin', 'index.js'), 'module.exports = {};');
    // An exports map without the entry: no admin side, even with the file there.
    write(path.join(modules, 'server-only', 'strapi-admin.js'), 'module.exports = {};');
    write(path.join(dir, 'src', 'plugins', 'mine', 'strapi-admin.js'), 'module.exports = require("./admin/src").default;');
    write(path.join(dir, 'src', 'plugins', 'mine', 'admin', 'src', 'index.js'), 'export default { register() {} };');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const config = { 'turned-off': false, mine: { enabled: true, resolve: './src/plugins/mine' }, idle: { enabled: false, resolve: './src/plugins/mine' } };

  it('includes each enabled plugin with an admin entry, under its Strapi name, with its version', () => {
    const found = panelPlugins(dir, runtime(), config);
    expect(found.map(({ name, importName, modulePath }) => ({ name, importName, modulePath }))).to.deep.equal([
      // No @strapi/content-releases here: Tessera's stand-in for it (the next test).
      { name: 'contentReleases', importName: 'contentReleases', modulePath: './content-releases-community.js' },
      { name: 'exported', importName: 'exported', modulePath: 'with-exports/strapi-admin' },
      { name: 'filed', importName: 'filed', modulePath: 'with-file/strapi-admin' },
      { name: 'users-permissions', importName: 'usersPermissions', modulePath: '@strapi/plugin-users-permissions/strapi-admin' },
      { name: 'mine', importName: 'mine', modulePath: '../../src/plugins/mine/strapi-admin.js' },
    ]);
    expect(found.slice(1, 4).map((plugin) => plugin.version)).to.deep.equal(['with-exports@2.1.0', 'with-file@1.2.3', '@strapi/plugin-users-permissions@4.26.2']);
    expect(found[4].version).to.match(/^local:[0-9a-f]{16}$/);
  });

  it("stands in for @strapi/content-releases when it is missing (i18n's admin side registers its hook), and takes the package when installed", () => {
    const [standIn] = panelPlugins(dir, runtime(), config);
    expect(standIn.version).to.match(/^tessera-stand-in:[0-9a-f]{16}$/);
    // The module creates the hook @strapi/plugin-i18n 4.26.2's bootstrap registers, and nothing else.
    expect(standIn.source?.match(/createHook\('([^']+)'\)/g)).to.deep.equal(["createHook('ContentReleases/pages/ReleaseDetails/add-locale-in-releases')"]);
    const releases = path.join(dir, 'node_modules', '@strapi', 'content-releases');
    write(path.join(releases, 'package.json'), { name: '@strapi/content-releases', version: '4.26.2', exports: { './strapi-admin': './dist/admin/index.js' } });
    write(path.join(releases, 'dist', 'admin', 'index.js'), 'module.exports = {};');
    const [installed] = panelPlugins(dir, runtime(), config);
    expect([installed.modulePath, installed.version, installed.source]).to.deep.equal(['@strapi/content-releases/strapi-admin', '@strapi/content-releases@4.26.2', undefined]);
  });

  it("changes a local plugin's version when its admin files change, and not otherwise", () => {
    const before = panelPlugins(dir, runtime(), config)[4].version;
    expect(panelPlugins(dir, runtime(), config)[4].version).to.equal(before);
    write(path.join(dir, 'src', 'plugins', 'mine', 'admin', 'src', 'index.js'), 'export default { register() { console.log(1); } };');
    expect(panelPlugins(dir, runtime(), config)[4].version).to.not.equal(before);
  });

  it('finds the same plugins once an app has booted in this process (the kernel resolves Strapi plugin entries)', async () => {
    const expected = ['contentReleases', 'exported', 'filed', 'users-permissions', 'mine'];
    const app = await startApp({ dialect: 'sqlite', files: { 'package.json': { name: 'booted', version: '0.1.0', dependencies: {} } } });
    try {
      expect(panelPlugins(dir, runtime(), config).map((plugin) => plugin.name)).to.deep.equal(expected);
    } finally {
      await app.stop();
    }
  });
});

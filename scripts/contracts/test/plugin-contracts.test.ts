/**
 * Every cross-plugin use goes through a declared dependency and the
 * provider's package entry: a plugin that imports another plugin's internal
 * file, or uses (imports, or looks up with `app.plugin('x')`) a plugin it has
 * not declared, fails this test. The checker is shown failing on such sources
 * first, so the pass on the real plugins means something.
 *
 * The typed half is checked by the test type-check (tsconfig.test.json):
 * `declaredLookups` stops compiling if a declared service loses its type.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { dependencyOrder, type App, type Plugin } from '@tessera/core';
import type { GraphqlExtensionApi } from '@tessera/plugin-graphql';
import type { LocalizationsService } from '@tessera/plugin-i18n';
import type { UploadService } from '@tessera/plugin-upload';
import type { UserService } from '@tessera/plugin-users-permissions';
import { checkPluginFile, type PluginUnderCheck } from './plugin-imports';

const ROOT = path.resolve(__dirname, '../../..');
const PLUGINS_DIR = path.join(ROOT, 'plugins');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** The plugin as the kernel gets it: the package's default export, an object or a factory. */
function declaration(packageName: string): Plugin {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = (require(packageName) as { default: Plugin | ((context: object) => Plugin) }).default;
  return typeof loaded === 'function' ? loaded({}) : loaded;
}

function builtInPlugins(): PluginUnderCheck[] {
  return fs.readdirSync(PLUGINS_DIR).sort().map((folder) => {
    const dir = path.join(PLUGINS_DIR, folder);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
    const plugin = declaration(manifest.name);
    return {
      name: plugin.name,
      packageName: manifest.name,
      dir,
      declared: [...(plugin.dependencies ?? []), ...(plugin.optionalDependencies ?? [])],
      packageDependencies: [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})],
    };
  });
}

function sourcesOf(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Exactly the same type (not merely assignable: `any` or a loose record would not pass). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The service map as plugins see it: each declared service has its provider's type. */
export function declaredLookups(app: App) {
  const extension = app.plugin('graphql')!.service('extension');
  const upload = app.plugin('upload')!.service('upload');
  const user = app.plugin('users-permissions')!.service('user');
  const localizations = app.plugin('i18n')!.service('localizations');
  const checks: [
    Same<typeof extension, GraphqlExtensionApi>,
    Same<typeof upload, UploadService>,
    Same<typeof user, UserService>,
    Same<typeof localizations, LocalizationsService>,
  ] = [true, true, true, true];
  // A plugin nobody declared (a published Strapi plugin) keeps Strapi's loose answer: undefined for an unknown name.
  const loose: Same<ReturnType<typeof untyped>, Record<string, unknown> | undefined> = true;
  function untyped() {
    return app.plugin('strapi-plugin-sitemap')!.service('sitemap');
  }
  return { checks, loose };
}

const named = (plugins: Plugin[]) => plugins.map((plugin) => plugin.name);

describe('plugin dependencies at boot (dependencyOrder)', () => {
  it('stops the boot naming both plugins when a required dependency is not enabled', () => {
    const upload: Plugin = { name: 'upload', dependencies: ['graphql'] };
    expect(() => dependencyOrder([upload])).to.throw('plugin "upload" needs plugin "graphql", which is not enabled');
  });

  it('skips an optional dependency that is not enabled, and runs an enabled one first', () => {
    const upload: Plugin = { name: 'upload', optionalDependencies: ['graphql'] };
    const graphql: Plugin = { name: 'graphql' };
    expect(named(dependencyOrder([upload]))).to.deep.equal(['upload']);
    expect(named(dependencyOrder([upload, graphql]))).to.deep.equal(['graphql', 'upload']);
  });
});

describe('plugin contracts', () => {
  const plugins = builtInPlugins();
  const byName = (name: string) => plugins.find((plugin) => plugin.name === name)!;

  it('finds every built-in plugin with its declared dependencies', () => {
    expect(plugins.map((plugin) => plugin.name)).to.deep.equal(['admin', 'content-manager', 'content-type-builder', 'email', 'graphql', 'i18n', 'rest', 'upload', 'users-permissions']);
    expect(byName('content-manager').declared).to.deep.equal(['admin', 'i18n']);
    expect(byName('email').declared).to.deep.equal([]);
    expect(byName('upload').declared).to.deep.equal(['graphql', 'admin']);
    expect(byName('admin').declared).to.deep.equal(['email']);
    expect(byName('graphql').declared).to.deep.equal([]);
  });

  it('refuses an internal file, a file outside the plugin, an undeclared plugin and an unlisted package', () => {
    const upload = byName('upload');
    const file = path.join(upload.dir, 'src', 'example.ts');
    const text = [
      "import type { ExtensionService } from '@tessera/plugin-graphql/dist/src/extension';",
      "import { USER_UID } from '../../users-permissions/src/content-types';",
      "const locales = app.plugin('i18n')!.service('locales');",
      "import type { GraphqlExtensionApi } from '@tessera/plugin-graphql';",
    ].join('\n');
    const violations = checkPluginFile({ ...upload, packageDependencies: [] }, file, text, plugins);
    expect(violations.map((violation) => `${violation.line}: ${violation.message}`)).to.deep.equal([
      '1: upload imports @tessera/plugin-graphql/dist/src/extension, an internal file of plugin "graphql" (use its package entry)',
      '1: upload imports @tessera/plugin-graphql, which its package.json does not list',
      '2: upload imports ../../users-permissions/src/content-types, a file outside its own sources',
      '4: upload imports @tessera/plugin-graphql, which its package.json does not list',
      '3: upload looks up plugin "i18n" without declaring it in dependencies or optionalDependencies',
    ]);
    const undeclared = checkPluginFile({ ...upload, declared: [] }, file, "import type { GraphqlExtensionApi } from '@tessera/plugin-graphql';", plugins);
    expect(undeclared.map((violation) => violation.message)).to.deep.equal(['upload imports plugin "graphql" without declaring it in dependencies or optionalDependencies']);
  });

  it('holds for the sources of every built-in plugin', () => {
    const violations = plugins.flatMap((plugin) =>
      sourcesOf(path.join(plugin.dir, 'src')).flatMap((file) => checkPluginFile(plugin, file, fs.readFileSync(file, 'utf8'), plugins)),
    );
    expect(violations.map((violation) => `${path.relative(ROOT, violation.file)}:${violation.line}: ${violation.message}`)).to.deep.equal([]);
  });
});

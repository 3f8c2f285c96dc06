/**
 * Loads an app file (`.ts` or `.js`). TypeScript is transpiled on require by
 * sucrase — a few milliseconds, no type checking — so apps run without a
 * build step and `tessera develop` can reload them.
 */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { DEFAULT_PLUGINS } from '../plugins/default-plugins';
import { BUILT_IN } from '../plugins/discover-plugins';
import { syntaxError } from './syntax-error';
import { kernelHasHoisted, missingHoistedPackage } from './strapi-hoisted';

let registered = false;
let sharing = false;

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

/**
 * Strapi v4 code imports `@strapi/strapi` (`const { factories } = require('@strapi/strapi')`)
 * and `@strapi/utils` (`errors`, `sanitize`, `yup`…).
 *
 * - `@strapi/strapi` is always the kernel's: a plugin that depends on it pulls the real
 *   Strapi server into node_modules, and its factories need Strapi's whole runtime
 *   (`Cannot find module 'ajv/dist/core'`). The default `rest` plugin (plugins/default-plugins.ts)
 *   provides the same names and Strapi's programmatic API (its `strapi-package` module).
 * - `@strapi/utils` is the real package when one is installed where the code lives: it is a
 *   library (sanitizers, yup, helpers) that runs on its own, and the errors it throws are
 *   mapped by name (`normalizeError` in `@tessera/errors`). When none is installed it is
 *   `@tessera/errors`, which exports the same `errors`.
 * - `@strapi/plugin-<name>/strapi-server` is always Tessera's plugin of that name, for the Strapi
 *   plugins Tessera implements: the real package's server needs Strapi's runtime too.
 */
const ALWAYS_KERNEL: Record<string, string> = Object.fromEntries([
  ...DEFAULT_PLUGINS.flatMap((plugin) => plugin.standsFor.map((strapiPackage) => [strapiPackage, plugin.entry ?? plugin.packageName])),
  // `require('@strapi/plugin-upload/strapi-server')` (a plugin extending Strapi's upload) gets Tessera's upload plugin
  // in Strapi's format (plugins/strapi-server-module.ts), for each Strapi plugin Tessera implements.
  ...[...BUILT_IN].map(([strapiPackage, name]) => [`${strapiPackage}/strapi-server`, `@tessera/plugin-${name}/dist/src/strapi-server`]),
  // `@strapi/admin`'s build module requires Strapi's edition switch when it loads (`tessera build`): a community edition.
  ['@strapi/strapi/dist/utils/ee', '@tessera/plugin-admin/dist/src/panel/strapi-ee'],
  // Its admin-panel half (`strapi-admin`), which Tessera does not serve: an object whose functions do nothing.
  ...[...BUILT_IN.keys()].map((strapiPackage) => [`${strapiPackage}/strapi-admin`, '@tessera/core/dist/src/plugins/strapi-admin-module']),
]);
const KERNEL_FALLBACK: Record<string, string> = {
  '@strapi/utils': '@tessera/errors',
};

/**
 * The Strapi entry points the kernel answers (`@strapi/strapi`, `@strapi/plugin-i18n/strapi-server`, …,
 * `@strapi/utils` when none is installed), each with the kernel file answering it: `tessera run` gives them to a
 * command run outside the kernel's process (a seed script, Jest), whose resolver is not this one.
 */
export function kernelEntryPoints(): Record<string, string> {
  const entries = Object.entries({ ...KERNEL_FALLBACK, ...ALWAYS_KERNEL });
  return Object.fromEntries(entries.map(([request, target]) => [request, require.resolve(target)]));
}

/**
 * App files import `@tessera/*` (`import { factories } from '@tessera/plugin-rest'`).
 * An app folder without its own node_modules (a fresh app, a test app in a temp
 * dir) cannot resolve them, so when normal resolution fails we resolve from the
 * running kernel instead. Falling back (rather than NODE_PATH, which must be set
 * before the process starts) also guarantees the app gets the very instances the
 * kernel runs, so `instanceof ValidationError` and registries are shared.
 */
export function shareKernelPackages(): void {
  if (sharing) return;
  sharing = true;
  const loader = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = loader._resolveFilename;
  loader._resolveFilename = function resolveWithKernelFallback(request, parent, isMain, options) {
    const kernelOnly = ALWAYS_KERNEL[request];
    if (kernelOnly) return original.call(this, kernelOnly, module, isMain, options);
    try {
      return original.call(this, request, parent, isMain, options);
    } catch (error) {
      // A package Strapi's dependencies hoist into every Strapi app, which Tessera has too (loader/strapi-hoisted.ts).
      const hoisted = kernelHasHoisted(request, (name) => original.call(this, name, module, isMain, options)) ? request : undefined;
      const kernelPackage = KERNEL_FALLBACK[request] ?? (request.startsWith('@tessera/') ? request : hoisted);
      if (!kernelPackage) throw error;
      return original.call(this, kernelPackage, module, isMain, options);
    }
  };
}

function registerTypeScript(): void {
  if (registered) return;
  registered = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('sucrase/register/ts');
}

const EXTENSIONS = ['.ts', '.js', '.cjs', '.json'];

/** The first existing `base + extension`, or undefined. */
export function findModule(base: string): string | undefined {
  for (const extension of EXTENSIONS) {
    const file = `${base}${extension}`;
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

/** Requires a module and returns its default export (or the module itself). */
export function loadModule(file: string): unknown {
  if (file.endsWith('.ts')) registerTypeScript();
  shareKernelPackages();
  let loaded: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require(path.resolve(file));
  } catch (error) {
    // The file or one it imports does not parse: where, and the line, rather than the transpiler's stack. Or it
    // requires a package every Strapi app has from Strapi's dependencies: one `npm install` line for all the app lacks.
    throw syntaxError(error) ?? missingHoistedPackage(error, file) ?? error;
  }
  return loaded && typeof loaded === 'object' && 'default' in loaded ? loaded.default : loaded;
}

/** Module files in a folder (no declaration files, no tests), sorted by name. */
export function moduleFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts') && !name.includes('.test.'))
    .sort()
    .map((name) => path.join(dir, name));
}

export function moduleName(file: string): string {
  return path.basename(file, path.extname(file));
}

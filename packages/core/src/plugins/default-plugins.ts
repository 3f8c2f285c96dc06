/**
 * The plugins the kernel runs without being asked, declared in one place:
 * the only plugins the kernel knows by name. Their packages are the app's
 * dependencies, not core's: `rest` depends on core, and a peer dependency back
 * made TypeScript's project build resolve `@tessera/plugin-rest` before it was
 * built (a cached failure that broke every clean build).
 *
 * `rest` is Strapi v4's REST layer. Strapi code that imports `@strapi/strapi`
 * (`const { factories } = require('@strapi/strapi')`, `require('@strapi/strapi')({ appDir }).load()`)
 * gets its `strapi-package` module: the real one is Strapi's whole runtime, and its factories cannot run here.
 */
export interface DefaultPlugin {
  /** The plugin's name (its key in `config/plugins`). */
  name: string;
  /** Where its server side is. */
  packageName: string;
  /** Strapi packages whose imports it answers, always (load-module.ts). */
  standsFor: string[];
  /** The module answering those imports, when not the package's main. */
  entry?: string;
}

export const DEFAULT_PLUGINS: readonly DefaultPlugin[] = [
  { name: 'rest', packageName: '@tessera/plugin-rest', standsFor: ['@strapi/strapi'], entry: '@tessera/plugin-rest/dist/src/strapi-package' },
];

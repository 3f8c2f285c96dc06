/**
 * `require('@strapi/strapi')` on Tessera: Strapi 4.26.2's programmatic API, which seed scripts, Strapi's documented
 * Jest setup and @strapi/admin's build call, with the factories app code imports.
 *
 *   const strapi = await require('@strapi/strapi')({ appDir, distDir }).load();  // registered and bootstrapped
 *   await strapi.start();      // listens on server.host/server.port (loads first when needed)
 *   await strapi.destroy();    // closes the server and the database
 *   const { appDir, distDir } = await require('@strapi/strapi').compile();      // what a TypeScript app is built into
 *
 * The module is the factory function, as Strapi's is, with `factories`, `compile` and `default` (the function)
 * on it, and every export of `@tessera/plugin-rest` besides (what this module answered before it was callable).
 * The app object is Tessera's `App` — the same `strapi` app code receives — booted as `tessera start` boots it.
 *
 * `distDir` is accepted and not read: Tessera runs a TypeScript app's sources (transpiled on require) and gives its
 * files the paths of the build (loader/compiled-layout.ts); `compile()` therefore builds nothing and answers where
 * Strapi's build would be (the tsconfig's `outDir`, else the app folder), as Strapi's answers it after building.
 */
import path from 'node:path';
import { App, typeScriptOutDir } from '@tessera/core';
import * as rest from './index';

/** Strapi 4.26.2's constructor options (`autoReload` and `serveAdminPanel` have no meaning without its admin panel). */
interface StrapiOptions {
  appDir?: string;
  distDir?: string;
  autoReload?: boolean;
  serveAdminPanel?: boolean;
}

interface CompileOptions {
  appDir?: string;
  ignoreDiagnostics?: boolean;
}

/** `require('@strapi/strapi')(options)`: an app not loaded yet; the cwd is the app folder unless `appDir` says. */
function createStrapi(options: StrapiOptions = {}): App {
  const appDir = options.appDir ? path.resolve(process.cwd(), options.appDir) : process.cwd();
  return new App({ dir: appDir, plugins: [rest.restPlugin] });
}

/** Strapi's `compile()`: `{ appDir, distDir }` for the app folder; a JavaScript app's distDir is the app folder. */
async function compile(options: CompileOptions = {}): Promise<{ appDir: string; distDir: string }> {
  const appDir = options.appDir ?? process.cwd();
  return { appDir, distDir: typeScriptOutDir(appDir) ?? appDir };
}

const strapiPackage = Object.assign(createStrapi, rest, { factories: rest.factories, compile, default: createStrapi });

export = strapiPackage;

/**
 * The parts of `@strapi/admin` 4.26.2's own build that Tessera drives: its
 * webpack build (`build(ctx)`: Strapi's webpack config, the app's
 * `src/admin/webpack.config.js` applied) and its HTML document
 * (`getDocumentHTML`). Its CLI exports only the whole `strapi build`, which
 * starts a Strapi server to learn the settings; the two functions live in
 * hashed chunks of its `dist/`, found the way its CLI module requires them.
 *
 * Loading them requires `@strapi/strapi` and `@strapi/strapi/dist/utils/ee`:
 * the kernel answers both (load-module.ts; neither is called by this path).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import { shareKernelPackages } from '@tessera/core';
import type { PanelPlugin } from './admin-plugins';

export interface StrapiBuildLogger {
  debug: (...args: unknown[]) => void;
  info: (...args: unknown[]) => void;
  warn: (...args: unknown[]) => void;
  error: (...args: unknown[]) => void;
  log: (...args: unknown[]) => void;
}

/** Strapi 4.26.2's `BuildContext`, the fields its webpack build reads. */
export interface StrapiBuildContext {
  appDir: string;
  cwd: string;
  basePath: string;
  bundler: 'webpack';
  customisations?: { path: string; modulePath: string };
  distDir: string;
  distPath: string;
  entry: string;
  env: Record<string, string>;
  features?: unknown;
  logger: StrapiBuildLogger;
  options: { minify: boolean; sourcemaps: boolean; stats: boolean };
  plugins: PanelPlugin[];
  runtimeDir: string;
  target: string[];
  tsconfig?: undefined;
}

interface IndexChunk {
  getDocumentHTML: (input: { logger: StrapiBuildLogger; props?: unknown }) => string;
}
interface WebpackChunk {
  build: (ctx: StrapiBuildContext) => Promise<boolean>;
}

export interface StrapiBuild {
  logger(log: (line: string) => void): StrapiBuildLogger;
  writeClientFiles(ctx: StrapiBuildContext): Promise<void>;
  build(ctx: StrapiBuildContext): Promise<void>;
}

/**
 * The chunk file named right after a literal `marker` in a bundle (`require("./_chunks/index-…js")`): a text search
 * for the marker, then the name's characters, so no pattern runs over the whole bundle.
 */
function chunkAfter(text: string, marker: string, what: string, version: string): string {
  const at = text.indexOf(marker);
  const rest = at < 0 ? '' : text.slice(at + marker.length, at + marker.length + 200);
  const name = /^[\w-]+\.js/.exec(rest)?.[0];
  if (!name || !rest.startsWith(`${name}")`)) {
    throw new ConfigurationError(`@strapi/admin ${version}: its ${what} was not found where 4.26.2 has it (Tessera drives the 4.26 build)`, '@strapi/admin');
  }
  return name;
}

export function loadStrapiBuild(appDir: string): StrapiBuild {
  const manifest = require.resolve('@strapi/admin/package.json', { paths: [appDir] });
  const root = path.dirname(manifest);
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  const chunks = path.join(root, 'dist', '_chunks');
  const cli = fs.readFileSync(path.join(root, 'dist', 'cli.js'), 'utf8');
  const indexName = `index-${chunkAfter(cli, 'require("./_chunks/index-', 'CLI module', version)}`;
  const indexText = fs.readFileSync(path.join(chunks, indexName), 'utf8');
  const webpackName = `build-${chunkAfter(indexText, 'buildWebpack } = await Promise.resolve().then(() => require("./build-', 'webpack build', version)}`;
  shareKernelPackages();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const index = require(path.join(chunks, indexName)) as IndexChunk;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const webpack = require(path.join(chunks, webpackName)) as WebpackChunk;

  return {
    logger(log) {
      const line = (...args: unknown[]) => log(`admin panel: ${args.map(String).join(' ')}`);
      return { debug: () => undefined, info: line, warn: line, error: line, log: line };
    },

    async writeClientFiles(ctx) {
      fs.mkdirSync(ctx.runtimeDir, { recursive: true });
      const html = index.getDocumentHTML({ logger: ctx.logger });
      fs.writeFileSync(path.join(ctx.runtimeDir, 'index.html'), html.replace(/<head/, '<!-- Written by tessera build; any change is discarded. -->\n<head'));
      for (const plugin of ctx.plugins) if (plugin.source !== undefined) fs.writeFileSync(path.join(ctx.runtimeDir, plugin.modulePath), plugin.source);
      fs.writeFileSync(path.join(ctx.runtimeDir, 'app.js'), entryModule(ctx));
    },

    async build(ctx) {
      // Strapi's build rejects with `false` after logging webpack's errors itself.
      const ok = await webpack.build(ctx).catch((error: unknown) => {
        if (error === false) return false;
        throw error;
      });
      if (!ok) throw new Error('the admin panel build failed (webpack errors above)');
    },
  };
}

/**
 * What Tessera's panel does unless the app's `src/admin/app` config says otherwise. The release check off: Strapi's
 * panel asks api.github.com for Strapi's latest release on every load and offers an upgrade this server is not, and
 * nothing may leave the editor's machine unasked. Part of the build's stamp (build.ts), so a change rebuilds.
 */
export const PANEL_CONFIG_DEFAULTS = { notifications: { releases: false } } as const;

/**
 * The panel's entry: `@strapi/admin`'s `renderAdmin` with the app's plugins — what Strapi's
 * generated module does through `@strapi/strapi/admin`, which adds its bundled plugins (those are
 * in `ctx.plugins` here when installed: admin-plugins.ts).
 */
function entryModule(ctx: StrapiBuildContext): string {
  const imports = ctx.plugins.map((plugin) => `import ${plugin.importName} from ${JSON.stringify(plugin.modulePath)};`);
  const map = ctx.plugins.map((plugin) => `    ${JSON.stringify(plugin.name)}: ${plugin.importName},`);
  const custom = ctx.customisations ? `import appCustomisations from ${JSON.stringify(ctx.customisations.modulePath)};` : 'const appCustomisations = {};';
  return [
    '/** Written by tessera build; any change is discarded. */',
    ...imports,
    "import { renderAdmin } from '@strapi/admin/strapi-admin';",
    custom,
    // The app's `config` wins key by key over Tessera's defaults (PANEL_CONFIG_DEFAULTS).
    `const defaults = ${JSON.stringify(PANEL_CONFIG_DEFAULTS)};`,
    'const config = appCustomisations.config || {};',
    'const customisations = { ...appCustomisations, config: { ...config, notifications: { ...defaults.notifications, ...config.notifications } } };',
    "renderAdmin(document.getElementById('strapi'), {",
    '  customisations,',
    ctx.features !== undefined ? `  features: ${JSON.stringify(ctx.features)},` : '',
    '  plugins: {',
    ...map,
    '  },',
    '});',
    '',
  ].filter((line) => line !== '').join('\n');
}

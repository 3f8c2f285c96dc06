/**
 * `tessera build`: the panel built from the app's installed `@strapi/admin`
 * by its own webpack build, as `strapi build` runs it in 4.26.2 — the same
 * webpack config, HTML document and output (`<app>/build`, laid out as Strapi
 * lays it out). What `strapi build` gets from a Strapi server instance (the
 * admin path, the backend URL, the plugins with admin sides) Tessera works out
 * from the app's config and packages (settings.ts, admin-plugins.ts), and it
 * writes the entry module itself: the panel's own `renderAdmin` with those
 * plugins. `@strapi/strapi` and `@strapi/strapi/dist/utils/ee`, which the
 * build's module requires when it loads, are answered by the kernel
 * (load-module.ts; `strapi-ee.ts` here: a community edition).
 *
 * A finished build is stamped with what it was made from (versions, plugins,
 * `src/admin`, settings): `panelIsStale` compares, so `tessera develop` builds
 * only when something changed. With `cacheDir`, finished builds are kept there
 * by that stamp and copied, not rebuilt (tests share one build this way).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import { panelPlugins, type PanelPlugin } from './admin-plugins';
import { loadStrapiBuild, PANEL_CONFIG_DEFAULTS, type StrapiBuildContext } from './strapi-build';
import type { AdminPanelSettings } from './settings';

export interface PanelBuildOptions {
  appDir: string;
  settings: AdminPanelSettings;
  /** config/plugins as loaded (local plugins with `resolve`). */
  pluginConfig: Record<string, unknown>;
  /** `config/features` (Strapi's future flags), passed to the panel as Strapi passes it. */
  features?: unknown;
  log: (line: string) => void;
  /** Keep finished builds here, by stamp, and reuse them. */
  cacheDir?: string;
  minify?: boolean;
}

export interface PanelBuildResult {
  /** `built`, `copied` from the cache, or `fresh` (nothing changed). */
  outcome: 'built' | 'copied' | 'fresh';
  ms: number;
  buildDir: string;
}

const STAMP = '.tessera-build.json';
const PEER_PACKAGES = ['react', 'react-dom', 'react-router-dom', 'styled-components'];
const ADMIN_APP_FILES = ['app.js', 'app.mjs', 'app.ts', 'app.jsx', 'app.tsx'];

/**
 * Whether the app has the panel: its package.json depends on `@strapi/admin` (what turns the admin plugin on) and
 * the package is installed. Without it, the app runs API-only.
 */
export function hasAdminPackage(appDir: string): boolean {
  let declared = false;
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    declared = manifest.dependencies?.['@strapi/admin'] !== undefined;
  } catch {
    declared = false;
  }
  return declared && versionOf('@strapi/admin', appDir) !== undefined;
}

function versionOf(packageName: string, appDir: string): string | undefined {
  try {
    const file = require.resolve(`${packageName}/package.json`, { paths: [appDir] });
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

interface BuildStamp {
  admin: string;
  peers: Record<string, string | undefined>;
  plugins: Array<[string, string]>;
  customisations: string;
  configDefaults: typeof PANEL_CONFIG_DEFAULTS;
  adminPath: string;
  adminUrl: string;
  serveAdminPanel: boolean;
  backendUrl: string;
  env: Record<string, string>;
  features: unknown;
  minify: boolean;
}

function makeStamp(options: PanelBuildOptions, plugins: PanelPlugin[], env: Record<string, string>): BuildStamp {
  return {
    admin: versionOf('@strapi/admin', options.appDir)!,
    peers: Object.fromEntries(PEER_PACKAGES.map((name) => [name, versionOf(name, options.appDir)])),
    plugins: plugins.map((plugin) => [plugin.name, plugin.version]),
    customisations: hashTree(path.join(options.appDir, 'src', 'admin')),
    configDefaults: PANEL_CONFIG_DEFAULTS,
    adminPath: options.settings.adminPath,
    adminUrl: options.settings.adminUrl,
    serveAdminPanel: options.settings.serveAdminPanel,
    backendUrl: options.settings.backendUrl,
    env,
    features: options.features ?? null,
    minify: options.minify !== false,
  };
}

/** A digest of every file under `dir` (names and contents); '' when there is none. */
function hashTree(dir: string): string {
  if (!fs.existsSync(dir)) return '';
  const hash = createHash('sha256');
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) hash.update(path.relative(dir, full)).update('\0').update(fs.readFileSync(full)).update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}

function panelEnv(settings: AdminPanelSettings): Record<string, string> {
  const env: Record<string, string> = { ADMIN_PATH: settings.adminPath, STRAPI_ADMIN_BACKEND_URL: settings.backendUrl, STRAPI_TELEMETRY_DISABLED: 'true' };
  for (const [key, value] of Object.entries(process.env)) if (key.toUpperCase().startsWith('STRAPI_ADMIN_') && value !== undefined) env[key] = value;
  return env;
}

function readStamp(buildDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(buildDir, STAMP), 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether `build/` is missing or was made from something else than what the app has now. */
export function panelIsStale(options: PanelBuildOptions): boolean {
  const runtimeDir = path.join(options.appDir, '.strapi', 'client');
  const plugins = panelPlugins(options.appDir, runtimeDir, options.pluginConfig);
  const stamp = JSON.stringify(makeStamp(options, plugins, panelEnv(options.settings)));
  return readStamp(options.settings.buildDir) !== stamp || !fs.existsSync(path.join(options.settings.buildDir, 'index.html'));
}

export async function buildPanel(options: PanelBuildOptions): Promise<PanelBuildResult> {
  const started = Date.now();
  const { appDir, settings, log } = options;
  if (versionOf('@strapi/admin', appDir) === undefined) throw new ConfigurationError('the admin panel needs @strapi/admin: npm install @strapi/admin@4.26.2 react@18 react-dom@18 react-router-dom@5.3.4 styled-components@5.3.3', 'package.json');
  const missing = PEER_PACKAGES.filter((name) => versionOf(name, appDir) === undefined);
  if (missing.length > 0) throw new ConfigurationError(`the admin panel's build needs ${missing.join(', ')} (peer dependencies of @strapi/admin): npm install ${missing.join(' ')}`, 'package.json');
  const runtimeDir = path.join(appDir, '.strapi', 'client');
  const plugins = panelPlugins(appDir, runtimeDir, options.pluginConfig);
  const env = panelEnv(settings);
  const stamp = JSON.stringify(makeStamp(options, plugins, env));
  const done = (outcome: PanelBuildResult['outcome']): PanelBuildResult => ({ outcome, ms: Date.now() - started, buildDir: settings.buildDir });
  if (readStamp(settings.buildDir) === stamp && fs.existsSync(path.join(settings.buildDir, 'index.html'))) return done('fresh');

  const cached = options.cacheDir ? path.join(options.cacheDir, createHash('sha256').update(stamp).digest('hex').slice(0, 16)) : undefined;
  if (cached && readStamp(cached) === stamp) {
    replaceDir(cached, settings.buildDir);
    // Marked as used, so pruning keeps the builds in use and drops the ones nobody asks for any more.
    const now = new Date();
    fs.utimesSync(cached, now, now);
    log(`admin panel: copied from the build cache (${path.relative(appDir, settings.buildDir)}/)`);
    return done('copied');
  }

  log(`admin panel: building with @strapi/admin ${versionOf('@strapi/admin', appDir)}${plugins.length ? `, plugins: ${plugins.map((plugin) => plugin.name).join(', ')}` : ''}`);
  const strapiBuild = loadStrapiBuild(appDir);
  // Built beside the target, then swapped in: a server serving build/ never sees half a build.
  const staging = `${settings.buildDir}.building-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const context: StrapiBuildContext = {
    appDir,
    cwd: appDir,
    // Served by this server: the assets are under the admin path; hosted elsewhere: under admin.url (Strapi's rule).
    basePath: settings.serveAdminPanel ? `${settings.adminPath}/` : `${settings.adminUrl}/`,
    bundler: 'webpack',
    customisations: customisations(appDir, runtimeDir),
    distDir: path.relative(appDir, staging),
    distPath: staging,
    // Strapi's webpack config resolves `./<entry>` from the process's directory (its CLI runs in the app).
    entry: path.relative(process.cwd(), path.join(runtimeDir, 'app.js')),
    env,
    features: options.features,
    logger: strapiBuild.logger(log),
    options: { minify: options.minify !== false, sourcemaps: false, stats: false },
    plugins,
    runtimeDir,
    target: ['last 3 major versions', 'Firefox ESR', 'last 2 Opera versions', 'not dead'],
  };
  const ticker = setInterval(() => log(`admin panel: still building (${Math.round((Date.now() - started) / 1000)} s)`), 15_000);
  try {
    await strapiBuild.writeClientFiles(context);
    await strapiBuild.build(context);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    clearInterval(ticker);
  }
  fs.writeFileSync(path.join(staging, STAMP), stamp);
  if (cached) {
    fs.rmSync(cached, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.cpSync(staging, `${cached}.${process.pid}`, { recursive: true });
    fs.renameSync(`${cached}.${process.pid}`, cached);
    pruneCache(options.cacheDir!);
  }
  replaceDir(staging, settings.buildDir, true);
  log(`admin panel: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${path.relative(appDir, settings.buildDir)}/)`);
  return done('built');
}

/**
 * Builds kept in a cache, the most recently used first (each is ~9 MB). More than the test suite's distinct panels
 * (seven: the example app's, with French, with i18n, and the ecosystem apps'): with fewer, a run that makes them in
 * turn evicts each before the next run asks for it, and every run builds them all again.
 */
const CACHE_KEEP = 12;

function pruneCache(cacheDir: string): void {
  const entries = fs
    .readdirSync(cacheDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[0-9a-f]{16}$/.test(entry.name))
    .map((entry) => ({ dir: path.join(cacheDir, entry.name), at: fs.statSync(path.join(cacheDir, entry.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of entries.slice(CACHE_KEEP)) fs.rmSync(old.dir, { recursive: true, force: true });
}

function customisations(appDir: string, runtimeDir: string): StrapiBuildContext['customisations'] {
  for (const file of ADMIN_APP_FILES) {
    const full = path.join(appDir, 'src', 'admin', file);
    if (fs.existsSync(full)) return { path: full, modulePath: path.relative(runtimeDir, full).split(path.sep).join('/') };
  }
  return undefined;
}

/** `target` becomes a copy of `source` (moved when `move`), the old one removed after. */
function replaceDir(source: string, target: string, move = false): void {
  const old = `${target}.old-${process.pid}`;
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(target)) fs.renameSync(target, old);
  if (move) fs.renameSync(source, target);
  else fs.cpSync(source, target, { recursive: true });
  fs.rmSync(old, { recursive: true, force: true });
}

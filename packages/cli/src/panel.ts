/**
 * The admin panel's build for `tessera build` and `tessera develop`: only for
 * an app that has `@strapi/admin` (else nothing, and the app runs API-only),
 * from the app's config (admin.url, server.url, config/plugins), through
 * `@tessera/plugin-admin`'s driver of Strapi's own build.
 */
import path from 'node:path';

export type PanelOutcome = 'no-admin' | 'built' | 'copied' | 'fresh';

export async function preparePanel(dir: string, log: (line: string) => void, options: { force?: boolean; minify?: boolean } = {}): Promise<PanelOutcome> {
  const admin = await import('@tessera/plugin-admin');
  if (!admin.hasAdminPackage(dir)) return 'no-admin';
  // Loaded here, not at the top: main.ts requires every command to print its help, and core is most of a boot.
  const { getConfig, loadConfig, loadDotEnv } = await import('@tessera/core');
  loadDotEnv(dir);
  const config = loadConfig(dir);
  const get = <T>(key: string) => getConfig<T | undefined>(config, key, undefined);
  const buildOptions = {
    appDir: dir,
    settings: admin.adminPanelSettings(dir, get),
    pluginConfig: get<Record<string, unknown>>('plugins') ?? {},
    features: get<unknown>('features'),
    log,
    minify: options.minify,
    // The last few builds, so going back (a plugin removed, src/admin reverted) copies instead of rebuilding.
    cacheDir: path.join(dir, '.strapi', 'panel-cache'),
  };
  if (!options.force && !admin.panelIsStale(buildOptions)) return 'fresh';
  if (!options.force) log('admin panel: build/ is missing or older than the app (plugins, versions or src/admin changed)');
  return (await admin.buildPanel(buildOptions)).outcome;
}

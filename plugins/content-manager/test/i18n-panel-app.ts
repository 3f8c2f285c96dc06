/**
 * The app the panel's locale journeys run on (Chromium): the peer fixture's model (articles with a cover, the
 * localized `page`) with the peer's locales (en, the default; fr; de), in an app whose package.json is the example
 * app's plus `@strapi/strapi` (upload on, as in a Strapi app) and `@strapi/plugin-i18n` — as a Strapi app with i18n
 * has it — so the panel Tessera builds for it has i18n's
 * admin side (Settings → Internationalization, the content manager's locale switches, "fill in from another
 * locale"). The example app itself stays without i18n.
 *
 * The panel build's cache key is the set of plugins with an admin side: every app made here shares one build, and
 * the suite's browser tests build two panels in all (this one and the example app's), once each per machine.
 */
import { startApp, type TestApp } from '@tessera/testing';
import { EXAMPLE_PACKAGE, panelInto, ROOT_NODE_MODULES } from '../../admin/test/panel-build';
import { localizedFiles, PEER_FIXTURE } from './entries-fixture';

const EXAMPLE_DEPENDENCIES = EXAMPLE_PACKAGE.dependencies as Record<string, string>;

export const I18N_PANEL_PACKAGE = { ...EXAMPLE_PACKAGE, name: 'tessera-i18n-panel', dependencies: { ...EXAMPLE_DEPENDENCIES, '@strapi/strapi': '4.26.2', '@strapi/plugin-i18n': '4.26.2' } };

/** The localized app on SQLite with its panel built (or copied from the cache), `secret` signing its admin sessions. */
export async function startLocalizedPanelApp(secret: string): Promise<TestApp> {
  const app = await startApp({
    dialect: 'sqlite',
    from: PEER_FIXTURE,
    files: { ...localizedFiles(), 'package.json': I18N_PANEL_PACKAGE },
    nodeModules: ROOT_NODE_MODULES,
    config: { admin: { auth: { secret } } },
  });
  await panelInto(app.dir);
  return app;
}

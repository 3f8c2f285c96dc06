/**
 * Strapi v4's content-manager plugin: the admin API under `/content-manager/*` that the real admin panel's content
 * manager calls. Strapi runs it in every app (it is internal to `@strapi/strapi`); Tessera turns it on exactly when
 * the admin plugin is on (core's discover-plugins: the app depends on `@strapi/admin`), since without the panel
 * nothing calls it.
 *
 * This file is only a list: each concern (layouts, entries, …) brings its controllers, routes and boot steps from
 * its own modules, and adds one import and one line per list here.
 */
import type { KernelContext, Plugin, RouteConfig } from '@tessera/core';
import { LAYOUT_CONTROLLERS } from './layouts/controllers';
import { syncConfigurations } from './layouts/configurations';
import { checkLayoutActions } from './entries/layout-actions';
import { LAYOUT_ROUTES } from './routes/layouts';
import { UID_CONTROLLERS } from './uid/uid';
import { ENTRY_ROUTES } from './routes/entries';
import { ENTRY_CONTROLLERS } from './entries/controllers';
import { checkHasPermissionsConfigs, hasPermissions, HAS_PERMISSIONS_POLICY } from './policies';

/** Every admin route of the plugin, in Strapi's order of concerns; mounted at `/content-manager` (the plugin's prefix). */
const ROUTES: RouteConfig[] = [
  ...LAYOUT_ROUTES,
  ...ENTRY_ROUTES,
];

/** Steps run at bootstrap, in order (Strapi's content-manager bootstrap). */
const BOOTSTRAP: Array<(context: KernelContext) => Promise<void>> = [
  ({ app }) => syncConfigurations(app),
  async ({ app }) => checkLayoutActions(app),
];

export function createContentManagerPlugin(): Plugin {
  return {
    name: 'content-manager',
    dependencies: ['admin'],
    optionalDependencies: ['i18n'],
    controllers: {
      ...LAYOUT_CONTROLLERS,
      ...UID_CONTROLLERS,
      ...ENTRY_CONTROLLERS,
    },
    routes: {
      admin: { type: 'admin', routes: ROUTES },
    },
    // `plugin::content-manager.hasPermissions`, which Strapi plugins' admin routes (i18n's among them) name.
    policies: { [HAS_PERMISSIONS_POLICY]: hasPermissions },
    register({ app }) {
      // Every router is known once every plugin and the app have booted (the kernel's last boot hook).
      app.hooks.on('app:bootstrapped', () => checkHasPermissionsConfigs(app));
    },
    async bootstrap(context) {
      for (const step of BOOTSTRAP) await step(context);
    },
  };
}

export default function contentManager(_context: KernelContext): Plugin {
  return createContentManagerPlugin();
}

/**
 * Strapi v4's content-manager plugin: the admin API under `/content-manager/*` that the real admin panel's content
 * manager calls. Strapi runs it in every app (it is internal to `@strapi/strapi`); Tessera turns it on exactly when
 * the admin plugin is on (core's discover-plugins: the app depends on `@strapi/admin`), since without the panel
 * nothing calls it.
 *
 * This file is only a list: each concern (layouts, entries, …) brings its controllers and routes from its own
 * modules, and adds one import and one line per list here.
 */
import type { KernelContext, Plugin, RouteConfig } from '@tessera/core';
import { LAYOUT_ROUTES } from './routes/layouts';
import { ENTRY_ROUTES } from './routes/entries';
import { ENTRY_CONTROLLERS } from './entries/controllers';

/** Every admin route of the plugin, in Strapi's order of concerns; mounted at `/content-manager` (the plugin's prefix). */
const ROUTES: RouteConfig[] = [
  ...LAYOUT_ROUTES,
  ...ENTRY_ROUTES,
];

export function createContentManagerPlugin(): Plugin {
  return {
    name: 'content-manager',
    dependencies: ['admin'],
    optionalDependencies: ['i18n'],
    controllers: {
      ...ENTRY_CONTROLLERS,
    },
    routes: {
      admin: { type: 'admin', routes: ROUTES },
    },
  };
}

export default function contentManager(_context: KernelContext): Plugin {
  return createContentManagerPlugin();
}

/**
 * The app of the plugins' admin sides suite: three published plugins with admin sides, installed from npm at pinned
 * versions beside `@strapi/admin` and its peers in one install (npm deduplicates React, the router and
 * styled-components, as in a Strapi app, so the plugins' admin code and the panel share them):
 *
 * - `@strapi/plugin-color-picker` — a custom field (its input in the content manager's edit view);
 * - `strapi-plugin-navigation` — a plugin page (menu link) and admin routes behind `admin::hasPermissions`;
 * - `strapi-plugin-config-sync` — a settings page (Settings → Config Sync → Tools) and admin routes for any admin.
 */

import bcrypt from 'bcryptjs';
import { startApp, type TestApp, type TestDialect } from '@tessera/testing';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { installPackages } from '../harness';

export const ADA = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };

/** Exactly what the suite installs (one npm install, kept between runs, keyed by this list). */
export const ADMIN_SIDES_PACKAGES: Record<string, string> = {
  '@strapi/admin': '4.26.2',
  '@strapi/plugin-users-permissions': '4.26.2',
  '@strapi/plugin-color-picker': '4.26.2',
  'strapi-plugin-navigation': '2.5.6',
  'strapi-plugin-config-sync': '1.2.6',
  react: '18.3.1',
  'react-dom': '18.3.1',
  'react-router-dom': '5.3.4',
  'styled-components': '5.3.3',
};

/**
 * Pinned for the panel's build: get-intrinsic 1.3.1 (April 2025, reached through qs from `@strapi/helper-plugin`)
 * requires async-function, whose ES module exports a string-named binding (`export { x as 'module.exports' }`)
 * that the esbuild of @strapi/admin 4.26.2's esbuild-loader refuses, failing the build. 1.3.0 is what the
 * repository's lockfile holds; an app installed today needs the same override in its package.json.
 */
export const ADMIN_SIDES_OVERRIDES = { 'get-intrinsic': '1.3.0' };

/** The plugins whose admin sides the build must include, by their keys in the panel's plugin map. */
/** `contentReleases`: Tessera's community-edition stand-in, as the install leaves `@strapi/content-releases` out (`--legacy-peer-deps`). */
export const PLUGINS_WITH_ADMIN = ['color-picker', 'navigation', 'config-sync', 'users-permissions', 'contentReleases'];

/** A palette type whose `accent` is the color picker's custom field (Strapi stores it as a string). */
export const ADMIN_SIDES_FILES = (syncDir: string): Record<string, string | object> => ({
  'src/api/palette/content-types/palette/schema.json': {
    kind: 'collectionType',
    collectionName: 'palettes',
    info: { singularName: 'palette', pluralName: 'palettes', displayName: 'Palette' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      accent: { type: 'customField', customField: 'plugin::color-picker.color' },
    },
  },
  'config/plugins.js': `module.exports = () => ({
  navigation: { enabled: true, config: { contentTypes: ['api::palette.palette'], allowedLevels: 2 } },
  'config-sync': { enabled: true, config: { syncDir: ${JSON.stringify(`${syncDir}/`)}, minify: false, importOnBootstrap: false } },
});`,
});

export interface AdminSidesApp {
  app: TestApp;
  /** The first admin (Super Admin) and an Author, whose role holds none of the plugins' actions. */
  tokens: { superAdmin: string; author: string };
}

/** The suite's app on a database, from the one install, with a Super Admin and an Author signed in. */
export async function startAdminSidesApp(dialect: TestDialect, syncDir: string): Promise<AdminSidesApp> {
  const { nodeModules } = await installPackages(ADMIN_SIDES_PACKAGES, ADMIN_SIDES_OVERRIDES);
  const dependencies = Object.fromEntries(Object.entries(ADMIN_SIDES_PACKAGES).sort(([a], [b]) => a.localeCompare(b, 'en')));
  const app = await startApp({
    dialect,
    nodeModules,
    files: { 'package.json': { name: 'admin-sides-app', private: true, dependencies }, ...ADMIN_SIDES_FILES(syncDir) },
    config: { admin: { auth: { secret: 'admin-sides-secret' } } },
  });
  const superAdmin = (await app.post('/admin/register-admin', ADA)).body.data.token as string;
  const author = (await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
  await app.app.db.query(USER_UID).create({ data: { email: 'author@example.com', firstname: 'Au', lastname: 'Thor', password: await bcrypt.hash('Author1234', 10), isActive: true, blocked: false, roles: [author] } });
  const authorToken = (await app.post('/admin/login', { email: 'author@example.com', password: 'Author1234' })).body.data.token as string;
  return { app, tokens: { superAdmin, author: authorToken } };
}

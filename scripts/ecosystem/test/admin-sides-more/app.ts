/**
 * The app of the second plugins' admin sides suite: three more published plugins with admin sides, installed from
 * npm at pinned versions beside `@strapi/admin` and its peers in one install (its own, as admin-sides/app.ts has
 * its own: npm deduplicates React, the router and styled-components, so the plugins' admin code and the panel
 * share them):
 *
 * - `@strapi/plugin-documentation` — a plugin page (its document's versions, open, regenerate) and a settings page
 *   (restricted access), over admin routes behind `admin::hasPermissions`;
 * - `@strapi/plugin-seo` (last v4 line) — a plugin page (content types with its component, per-type check settings)
 *   and a panel in the content manager's edit view; admin routes for any admin;
 * - `strapi-plugin-publisher` (last v4 line) — publish/unpublish dates in the edit view, stored as its own
 *   content type's rows through its admin routes (any admin).
 */

import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { startApp, type TestApp, type TestDialect } from '@tessera/testing';
import { ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { installPackages, type Installation } from '../harness';
import { ADA, ADMIN_SIDES_OVERRIDES } from '../admin-sides/app';

export { ADA };

/** Exactly what the suite installs (one npm install, kept between runs, keyed by this list and the overrides). */
export const MORE_ADMIN_SIDES_PACKAGES: Record<string, string> = {
  '@strapi/admin': '4.26.2',
  '@strapi/plugin-users-permissions': '4.26.2',
  // The media library: the seo component's images are media fields, whose input is upload's admin side.
  '@strapi/plugin-upload': '4.26.2',
  '@strapi/plugin-documentation': '4.26.2',
  '@strapi/plugin-seo': '1.9.9',
  'strapi-plugin-publisher': '1.5.9',
  react: '18.3.1',
  'react-dom': '18.3.1',
  'react-router-dom': '5.3.4',
  'styled-components': '5.3.3',
};

/** The plugins whose admin sides the build must include, by their keys in the panel's plugin map. */
/** `contentReleases`: Tessera's community-edition stand-in, as the install leaves `@strapi/content-releases` out (`--legacy-peer-deps`). */
export const MORE_PLUGINS_WITH_ADMIN = ['documentation', 'seo', 'publisher', 'upload', 'users-permissions', 'contentReleases'];

/** The suite's one install (get-intrinsic pinned for the panel's build, as admin-sides/app.ts explains). */
export function installMoreAdminSides(): Promise<Installation> {
  return installPackages(MORE_ADMIN_SIDES_PACKAGES, ADMIN_SIDES_OVERRIDES);
}

/**
 * An article type with drafts (publisher's dates need them) and the `seo` component at its root, named `seo` as
 * the seo plugin asks. Its components are the plugin's own schemas, copied into the app as its docs say for an app
 * that does not create them through the content-type builder.
 */
function appFiles(nodeModules: string): Record<string, string | object> {
  const seoComponents = path.join(nodeModules, '@strapi/plugin-seo/server/components');
  const component = (name: string): object => JSON.parse(fs.readFileSync(path.join(seoComponents, `${name}.json`), 'utf8')) as object;
  return {
    'src/components/shared/seo.json': component('seo'),
    'src/components/shared/meta-social.json': component('meta-social'),
    'src/api/article/content-types/article/schema.json': {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true },
        body: { type: 'richtext' },
        seo: { type: 'component', component: 'shared.seo' },
      },
    },
    'config/plugins.js': `module.exports = () => ({
  documentation: { enabled: true },
  seo: { enabled: true },
  publisher: { enabled: true },
});`,
  };
}

export interface MoreAdminSidesApp {
  app: TestApp;
  /** The first admin (Super Admin) and an Author, whose role holds none of the plugins' actions. */
  tokens: { superAdmin: string; author: string };
}

/** The suite's app on a database, from the one install, with a Super Admin and an Author signed in. */
export async function startMoreAdminSidesApp(dialect: TestDialect): Promise<MoreAdminSidesApp> {
  const { nodeModules } = await installMoreAdminSides();
  const dependencies = Object.fromEntries(Object.entries(MORE_ADMIN_SIDES_PACKAGES).sort(([a], [b]) => a.localeCompare(b, 'en')));
  const app = await startApp({
    dialect,
    nodeModules,
    files: { 'package.json': { name: 'admin-sides-more-app', private: true, dependencies }, ...appFiles(nodeModules) },
    // App keys sign the session cookie (documentation's restricted access keeps its reader's login there).
    config: { admin: { auth: { secret: 'admin-sides-more-secret' } }, server: { app: { keys: ['admin-sides-more-key-1', 'admin-sides-more-key-2'] } } },
  });
  const superAdmin = (await app.post('/admin/register-admin', ADA)).body.data.token as string;
  const author = (await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-author' }, select: ['id'] }))!.id;
  await app.app.db.query(USER_UID).create({ data: { email: 'author@example.com', firstname: 'Au', lastname: 'Thor', password: await bcrypt.hash('Author1234', 10), isActive: true, blocked: false, roles: [author] } });
  const authorToken = (await app.post('/admin/login', { email: 'author@example.com', password: 'Author1234' })).body.data.token as string;
  return { app, tokens: { superAdmin, author: authorToken } };
}

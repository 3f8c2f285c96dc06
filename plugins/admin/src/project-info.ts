/**
 * What the panel asks before and right after sign-in about the project, answered
 * as a community-edition Strapi 4.26.2 answers (`admin` controller): `init`,
 * `project-type`, `information`, `project-settings`, `telemetry-properties`,
 * `plugins` (`license-limit-information` is an `ee/` route: a community edition
 * has none, and the panel does not ask it).
 *
 * Telemetry is off: `init`'s `uuid` is always `false` (the panel sends usage
 * events only when it has one) and `telemetry-properties` is 204, as on a
 * Strapi whose telemetry is disabled. `admin.flags` defaults to
 * `{ nps: false, promoteEE: false }` (Strapi's default turns both on: a survey
 * and Enterprise banners), so the panel asks nothing off its own origin.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '@tessera/core';
import { adminUsers } from './users';

const LOGOS = ['menuLogo', 'authLogo'] as const;
const LOGO_FIELDS = ['name', 'url', 'width', 'height', 'ext', 'size'];

type Logo = Record<string, unknown> | null;

/** Strapi's `getProjectSettings`: the logos kept in the core store (`core_admin_project-settings`), public fields only. */
export async function projectSettings(app: App): Promise<Record<(typeof LOGOS)[number], Logo>> {
  const stored = (await app.store({ type: 'core', name: 'admin' }).get({ key: 'project-settings' })) as Record<string, unknown> | null;
  const settings = { menuLogo: null, authLogo: null } as Record<(typeof LOGOS)[number], Logo>;
  for (const name of LOGOS) {
    const logo = stored?.[name];
    if (logo && typeof logo === 'object') settings[name] = Object.fromEntries(LOGO_FIELDS.filter((key) => key in logo).map((key) => [key, (logo as Record<string, unknown>)[key]]));
  }
  return settings;
}

export async function init(app: App) {
  const { menuLogo, authLogo } = await projectSettings(app);
  return {
    data: {
      uuid: false,
      hasAdmin: await adminUsers(app).exists(),
      // A logo kept as {} (Strapi's store after a save that set only the other one) has no url: the key is left out.
      menuLogo: menuLogo ? menuLogo.url : null,
      authLogo: authLogo ? authLogo.url : null,
    },
  };
}

export function projectType(app: App) {
  const flags = app.config.get<Record<string, unknown>>('admin.flags') ?? {};
  return { data: { isEE: false, features: [], flags: { nps: false, promoteEE: false, ...flags } } };
}

export function information(app: App) {
  const info = app.config.get<Record<string, unknown>>('info') ?? {};
  return {
    data: {
      currentEnvironment: app.config.get<string>('environment') ?? 'development',
      autoReload: app.config.get<boolean>('autoReload') ?? false,
      strapiVersion: (info.strapi as string | undefined) ?? null,
      dependencies: info.dependencies ?? {},
      projectId: app.config.get<string>('uuid') ?? null,
      nodeVersion: process.version,
      communityEdition: true,
      useYarn: fs.existsSync(path.join(app.dir, 'yarn.lock')),
    },
  };
}

/** Strapi 4.26.2's plugin infos as its `/admin/plugins` lists them (recorded on the peer); `packageName` for npm plugins only. */
const STRAPI_PLUGIN_INFO: Record<string, { displayName: string; description: string; packageName?: string }> = {
  'content-manager': { displayName: 'Content Manager', description: 'Quick way to see, edit and delete the data in your database.' },
  'content-type-builder': { displayName: 'Content Type Builder', description: 'Modelize the data structure of your API. Create new fields and relations in just a minute. The files are automatically created and updated in your project.' },
  email: { displayName: 'Email', description: 'Configure your application to send emails.' },
  upload: { displayName: 'Media Library', description: 'Media file management.' },
  'users-permissions': { displayName: 'Roles & Permissions', description: 'Protect your API with a full authentication process based on JWT. This plugin comes also with an ACL strategy that allows you to manage the permissions between the groups of users.', packageName: '@strapi/plugin-users-permissions' },
  graphql: { displayName: 'GraphQL', description: 'Adds GraphQL endpoint with default API methods.', packageName: '@strapi/plugin-graphql' },
  i18n: { displayName: 'Internationalization', description: 'This plugin enables to create, to read and to update content in different languages, both from the Admin Panel and from the API.', packageName: '@strapi/plugin-i18n' },
};

/** Tessera's own plugins, which are no Strapi plugins: `rest` stands for Strapi's core, `admin` for `@strapi/admin`. */
const NOT_LISTED = new Set(['rest', 'admin']);

/** Strapi's `admin.plugins`: the enabled plugins with their display names (the panel's plugins page lists them). */
export function plugins(app: App) {
  const names = app.plugins.keys().filter((name) => !NOT_LISTED.has(name));
  return { plugins: names.map((name) => ({ name, ...(STRAPI_PLUGIN_INFO[name] ?? { displayName: name, description: '' }) })) };
}

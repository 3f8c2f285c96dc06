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
      menuLogo: menuLogo ? (menuLogo.url ?? null) : null,
      authLogo: authLogo ? (authLogo.url ?? null) : null,
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

/** Strapi's `admin.plugins`: the enabled plugins with their display names (the marketplace and settings list them). */
export function plugins(app: App) {
  const names = app.plugins.keys();
  return { plugins: names.map((name) => ({ name, displayName: name, description: '' })) };
}


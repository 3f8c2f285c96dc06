/**
 * The grant settings of Strapi v4's core store (`plugin_users-permissions_grant`): each provider's row — `enabled`,
 * `key`, `secret`, the frontend `callback`, `scope`, … — as the panel's Providers page edits it. A provider is
 * usable only while its row says `enabled: true`; every route of a disabled one answers 400
 * `This provider is disabled`, as on Strapi.
 */
import type { App } from '@tessera/core';

export type GrantSettings = Record<string, Record<string, unknown>>;

export async function grantSettings(app: App): Promise<GrantSettings> {
  const value = await app.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'grant' });
  if (value === null || typeof value !== 'object') return {};
  const rows: GrantSettings = {};
  for (const [name, row] of Object.entries(value)) if (row !== null && typeof row === 'object' && !Array.isArray(row)) rows[name] = row as Record<string, unknown>;
  return rows;
}

/** The row of `provider` when the grant settings enable it (Strapi reads `local` as `email`), else null. */
export async function enabledProvider(app: App, provider: string): Promise<Record<string, unknown> | null> {
  const key = provider === 'local' ? 'email' : provider;
  const settings = await grantSettings(app);
  // Without a stored row Strapi's defaults hold: email enabled, the others not.
  if (key === 'email' && !Object.hasOwn(settings, key)) return {};
  const row = Object.hasOwn(settings, key) ? settings[key] : undefined;
  return row?.enabled === true ? row : null;
}

/** Whether the grant settings enable `provider`. */
export async function providerEnabled(app: App, provider: string): Promise<boolean> {
  return (await enabledProvider(app, provider)) !== null;
}

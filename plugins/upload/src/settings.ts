/**
 * The upload's settings, kept where Strapi v4 keeps them: the core store row
 * `plugin_upload_settings`, `{ sizeOptimization, responsiveDimensions,
 * autoOrientation }`. Strapi edits them on its admin settings page and its
 * image functions read them on each upload (`getService('upload').getSettings()`),
 * as published plugins that replace those functions do.
 *
 * Tessera has no settings page, so `config/plugins`' `upload.config` may name
 * them: a key given there is written over the stored one at each boot. A key
 * neither stored nor configured gets Strapi's default, as Strapi's bootstrap
 * fills it; `setSettings` changes them until the next boot's config.
 */
import { ValidationError } from '@tessera/errors';
import type { App } from '@tessera/core';

export interface UploadSettings {
  /** Re-encode images when that makes them smaller. */
  sizeOptimization: boolean;
  /** Make the breakpoint formats. */
  responsiveDimensions: boolean;
  /** Apply the EXIF orientation to the pixels of the stored original (its formats are made from it), as Strapi's optimize does. */
  autoOrientation: boolean;
}

export const DEFAULT_SETTINGS: Readonly<UploadSettings> = { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false };

const KEYS = Object.keys(DEFAULT_SETTINGS) as Array<keyof UploadSettings>;

const settingsRow = (app: App) => app.store({ type: 'plugin', name: 'upload', key: 'settings' });

/** Bootstrap: the stored settings completed with the defaults, then overridden by what `configured` names. */
export async function ensureSettings(app: App, configured: Partial<UploadSettings>): Promise<void> {
  const stored = await settingsRow(app).get({});
  const current = isRecord(stored) ? stored : {};
  const given = Object.fromEntries(KEYS.filter((key) => configured[key] !== undefined).map((key) => [key, configured[key]]));
  const complete = KEYS.every((key) => key in current);
  if (complete && KEYS.every((key) => !(key in given) || current[key] === given[key])) return;
  // Other keys a Strapi-made row holds are kept, as Strapi's bootstrap keeps them.
  await settingsRow(app).set({ value: { ...DEFAULT_SETTINGS, ...current, ...given } });
}

/** The stored settings (Strapi's `getSettings()` answers the row as stored, `null` before the first boot). */
export async function readSettings(app: App): Promise<Record<string, unknown> | null> {
  const stored = await settingsRow(app).get({});
  return isRecord(stored) ? stored : null;
}

/** What the image functions go by: the stored values, Strapi's defaults for those missing or not booleans. */
export async function effectiveSettings(app: App): Promise<UploadSettings> {
  const stored = (await readSettings(app)) ?? {};
  const settings = { ...DEFAULT_SETTINGS };
  for (const key of KEYS) if (typeof stored[key] === 'boolean') settings[key] = stored[key];
  return settings;
}

/** Replaces the stored settings, as Strapi's `setSettings(value)`; a value that is not Strapi's shape is a 400 and changes nothing. */
export async function writeSettings(app: App, value: unknown): Promise<unknown> {
  if (!isRecord(value)) throw new ValidationError('upload settings must be an object');
  const wrong = KEYS.filter((key) => key in value && typeof value[key] !== 'boolean');
  if (wrong.length > 0) throw ValidationError.fromIssues(wrong.map((key) => ({ path: [key], message: `${key} must be a boolean`, name: 'ValidationError' })));
  await settingsRow(app).set({ value });
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

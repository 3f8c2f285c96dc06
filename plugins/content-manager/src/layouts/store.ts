/**
 * Configurations in Strapi's core store, under Strapi's keys: `plugin_content_manager_configuration_content_types::<uid>`
 * and `plugin_content_manager_configuration_components::<uid>` (rows of `strapi_core_store_settings`), so a
 * Strapi-made database's views are Tessera's and the other way round. Reads are one query per request (a type and
 * the components it shows are read together), whatever the number of components.
 */
import type { App } from '@tessera/core';
import { deepEqual, deepMerge, isPlainObject, type StoredConfiguration } from './configuration';

/** The core store's content type (core/strapi/core-store.ts), queried directly for Strapi's prefix reads. */
const CORE_STORE_UID = 'strapi::core-store';
const KEY_PREFIX = 'plugin_content_manager_configuration_';

export type ConfigurationKind = 'content_types' | 'components';

export const storeKey = (kind: ConfigurationKind, uid: string) => `${KEY_PREFIX}${kind}::${uid}`;

/** A row's value as the core store decodes it (JSON text); a row that does not hold a JSON object reads as none. */
function decodeRow(value: unknown): StoredConfiguration | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? (parsed as StoredConfiguration) : undefined;
  } catch {
    return undefined;
  }
}

/** Every stored configuration of one kind, by uid (the row key's, which Strapi also writes into the value). */
export async function readAll(app: App, kind: ConfigurationKind): Promise<Map<string, StoredConfiguration>> {
  const prefix = `${KEY_PREFIX}${kind}::`;
  const rows = await app.db.query(CORE_STORE_UID).findMany({ where: { key: { $startsWith: prefix } }, select: ['key', 'value'] });
  const found = new Map<string, StoredConfiguration>();
  for (const row of rows) {
    const key = String(row.key);
    // `$startsWith` is a LIKE, where `_` matches any character: keep only the exact prefix.
    if (!key.startsWith(prefix)) continue;
    const value = decodeRow(row.value);
    if (value) found.set(key.slice(prefix.length), value);
  }
  return found;
}

/** The stored configurations of the given uids, read in one query. */
export async function readMany(app: App, entries: Array<{ kind: ConfigurationKind; uid: string }>): Promise<Map<string, StoredConfiguration>> {
  const keys = entries.map(({ kind, uid }) => storeKey(kind, uid));
  const found = new Map<string, StoredConfiguration>();
  if (keys.length === 0) return found;
  const rows = await app.db.query(CORE_STORE_UID).findMany({ where: { key: { $in: keys } }, select: ['key', 'value'] });
  for (const row of rows) {
    const value = decodeRow(row.value);
    if (value) found.set(String(row.key), value);
  }
  return found;
}

/** Strapi's `getModelConfiguration`: the stored value over empty settings, metadatas and layouts. */
export function withEmptyParts(stored: StoredConfiguration | undefined): StoredConfiguration {
  return deepMerge<StoredConfiguration>({}, { settings: {}, metadatas: {}, layouts: {} }, stored ?? {});
}

/**
 * Strapi's `setModelConfiguration`: each given top-level part (null and undefined skipped) replaces the stored one,
 * and the row is written only when that changes it.
 */
export async function writeConfiguration(app: App, kind: ConfigurationKind, uid: string, stored: StoredConfiguration | undefined, parts: StoredConfiguration): Promise<void> {
  const current: StoredConfiguration = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(parts)) if (value !== null && value !== undefined) current[key] = value;
  if (deepEqual(current, stored ?? {})) return;
  await app.store({ type: 'plugin', name: 'content_manager' }).set({ key: `configuration_${kind}::${uid}`, value: current });
}

export async function deleteConfiguration(app: App, kind: ConfigurationKind, uid: string): Promise<void> {
  await app.db.query(CORE_STORE_UID).deleteMany({ where: { key: storeKey(kind, uid) } });
}

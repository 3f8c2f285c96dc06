/**
 * `strapi.store`: Strapi v4's core store, key/value settings in
 * `strapi_core_store_settings`, row for row as Strapi writes them
 * (`key` = `<type>_<name>_<key>`, `value` JSON text, `type` = `typeof value`,
 * `environment` and `tag` NULL unless given), so a Strapi-made database's
 * settings are read in place and ours are readable by Strapi.
 *
 *   strapi.store({ type: 'plugin', name: 'x' }).get({ key: 'k' })
 *   strapi.store.get({ type: 'plugin', name: 'x', key: 'k' })
 */
import type { ContentType, Database } from '@tessera/database';

export const CORE_STORE_UID = 'strapi::core-store';

/** The table, declared like any type so schema sync creates it (and never routes or exposes it). */
export const CORE_STORE_CONTENT_TYPE: ContentType = {
  uid: CORE_STORE_UID,
  namespace: 'strapi',
  kind: 'collectionType',
  collectionName: 'strapi_core_store_settings',
  info: { singularName: 'strapi-core-store', pluralName: 'strapi-core-stores', displayName: 'Core store' },
  options: {},
  bareTable: true,
  attributes: {
    key: { type: 'string' },
    value: { type: 'text' },
    type: { type: 'string' },
    environment: { type: 'string' },
    tag: { type: 'string' },
  },
};

export interface StoreParams {
  key?: string;
  /** `core` when omitted on read (Strapi's default); the key prefix. */
  type?: string;
  name?: string;
  environment?: string | null;
  tag?: string | null;
  value?: unknown;
}

export interface BoundStore {
  get(params: StoreParams): Promise<unknown>;
  set(params: StoreParams): Promise<unknown>;
  delete(params: StoreParams): Promise<unknown>;
}

export interface CoreStore {
  (defaults: StoreParams): BoundStore;
  get(params: StoreParams): Promise<unknown>;
  set(params: StoreParams): Promise<unknown>;
  delete(params: StoreParams): Promise<unknown>;
}

/** The store over a connected database (`db` is read on each call: the store exists before the database does). */
export function createCoreStore(database: () => Database): CoreStore {
  const store = ((defaults: StoreParams): BoundStore => ({
    get: (params) => store.get({ ...defaults, ...params }),
    set: (params) => store.set({ ...defaults, ...params }),
    delete: (params) => store.delete({ ...defaults, ...params }),
  })) as CoreStore;
  const repository = () => database().query(CORE_STORE_UID);

  store.get = async (params) => {
    const row = await repository().findOne({ where: rowWhere({ ...params, type: params.type ?? 'core' }) });
    return row ? decode(String(row.type), row.value === null ? null : String(row.value)) : null;
  };
  store.set = async (params) => {
    const where = rowWhere(params);
    const data = { value: encode(params.value), type: typeof params.value };
    const existing = await repository().findOne({ where, select: ['id'] });
    if (existing) return repository().update({ where: { id: existing.id }, data });
    return repository().create({ data: { ...where, ...data } });
  };
  store.delete = async (params) => repository().delete({ where: rowWhere(params) });
  return store;
}

/** Strapi's row key and scope: `${type}_${name}_${key}` (no `_${name}` without a name). */
function rowWhere(params: StoreParams): Record<string, unknown> {
  const prefix = `${params.type}${params.name ? `_${params.name}` : ''}`;
  return { key: `${prefix}_${params.key}`, environment: params.environment || null, tag: params.tag || null };
}

/** `JSON.stringify(value) || String(value)`, as Strapi writes it (undefined and functions become text). */
function encode(value: unknown): string {
  return JSON.stringify(value) || String(value);
}

/** Strapi's read: JSON for object/array/boolean/string (a non-JSON string reads as a Date, as in Strapi), numbers as numbers, else null. */
function decode(type: string, value: string | null): unknown {
  if (value === null) return null;
  if (type === 'object' || type === 'array' || type === 'boolean' || type === 'string') {
    try {
      return JSON.parse(value);
    } catch {
      return new Date(value);
    }
  }
  if (type === 'number') return Number(value);
  return null;
}

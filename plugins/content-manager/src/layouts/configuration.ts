/**
 * A content type's or component's view configuration as Strapi stores it in the core store and the panel reads it:
 * list settings, per-field metadatas (labels, placeholders, what a relation shows) and the list and edit layouts.
 * Stored values are the panel's JSON as it sent it (checked by configuration-schema.ts), so they are typed loosely
 * where Strapi keeps what it is given.
 */
export interface Settings {
  bulkable?: boolean;
  filterable?: boolean;
  searchable?: boolean;
  pageSize?: number;
  mainField?: string;
  defaultSortBy?: string;
  defaultSortOrder?: string;
  [key: string]: unknown;
}

export interface EditMetadata {
  label?: string;
  description?: string;
  placeholder?: string;
  visible?: boolean;
  editable?: boolean;
  mainField?: string;
  [key: string]: unknown;
}

export interface ListMetadata {
  label?: string;
  searchable?: boolean;
  sortable?: boolean;
  mainField?: string;
  [key: string]: unknown;
}

export interface Metadata {
  edit: EditMetadata;
  list: ListMetadata;
}

export interface EditField {
  name: string;
  size: number;
}

export interface Layouts {
  list: string[];
  edit: EditField[][];
  /** Strapi 4.0's third layout, read from old stores by sync (its relations go back into the edit layout). */
  editRelations?: string[];
}

/** What the store holds under `plugin_content_manager_configuration_<content_types|components>::<uid>`. */
export interface StoredConfiguration {
  settings?: Settings;
  metadatas?: Record<string, Metadata>;
  layouts?: Partial<Layouts>;
  uid?: string;
  isComponent?: boolean;
  [key: string]: unknown;
}

/** A configuration the sync computes: the three parts, complete. */
export interface Configuration {
  settings: Settings;
  metadatas: Record<string, Metadata>;
  layouts: Layouts;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** lodash's `isEmpty` for what a store holds: nothing, or an object or array without entries. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** lodash's `merge` over JSON: plain objects merged key by key (later wins), arrays by index, undefined skipped. */
export function deepMerge<T>(target: T, ...sources: unknown[]): T {
  for (const source of sources) mergeInto(target as unknown, source);
  return target;
}

function mergeInto(target: unknown, source: unknown): void {
  if (!isMergeable(source) || !isMergeable(target)) return;
  const into = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const current = into[key];
    if (isMergeable(value)) {
      const base = isMergeable(current) && Array.isArray(current) === Array.isArray(value) ? current : Array.isArray(value) ? [] : {};
      mergeInto(base, value);
      into[key] = base;
    } else into[key] = value;
  }
}

const isMergeable = (value: unknown): value is Record<string, unknown> | unknown[] => value !== null && typeof value === 'object';

/** lodash's `isEqual` over JSON values (key order does not count). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && deepEqual(left[key], right[key]));
}

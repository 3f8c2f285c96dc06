/**
 * An answer cut to what a caller may see, as Strapi's `sanitizeOutput` cuts
 * it: private attributes dropped at every level (components and dynamic zones
 * included) and, with a caller, relations into types it may not read and
 * media when it may not read files. For answers the read plan did not shape:
 * `strapi.contentAPI.sanitize.output` and reads through a decorated entity
 * service (decorated-reads.ts).
 */
import { FILE_UID, type Database, type EntityMetadata } from '@tessera/database';
import type { Caller } from '../auth/caller';

export function cleanOutput(data: unknown, entity: EntityMetadata, db: Database, caller: Caller | undefined): unknown {
  if (Array.isArray(data)) return data.map((item) => cleanOutput(item, entity, db, caller));
  if (!isObject(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const column = entity.columns.get(key);
    if (column?.private) continue;
    const link = entity.links.get(key);
    if (link?.private) continue;
    if (link?.kind === 'relation') {
      if (caller && !caller.mayRead(link.target)) continue;
      out[key] = cleanOutput(value, db.entity(link.target), db, caller);
    } else if (link?.kind === 'media') {
      // Media follow populate's rule: readable with the file type's find.
      if (caller && !caller.mayRead(FILE_UID)) continue;
      out[key] = value;
    } else if (link && (link.kind === 'component' || link.kind === 'dynamiczone')) {
      out[key] = cleanComponents(value, link.components, db, caller);
    } else out[key] = value;
  }
  return out;
}

function cleanComponents(value: unknown, uids: string[], db: Database, caller: Caller | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => cleanComponents(item, uids, db, caller));
  if (!isObject(value)) return value;
  const uid = typeof value.__component === 'string' ? value.__component : uids[0];
  return uids.includes(uid) ? { ...(cleanOutput(value, db.entity(uid), db, caller) as object), ...(value.__component ? { __component: uid } : {}) } : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `fileInfo`: what a client may say about its files — `name`,
 * `alternativeText`, `caption` — as one JSON object or an array (one per
 * file, in order), in one or several form fields, plus `folder: null`.
 * Anything else (`url`, `hash`, `provider`, `path`, a folder id, ...) is
 * refused: those are the server's.
 */
import { ValidationError } from '@tessera/errors';
import { sanitizeName } from './names';

export interface FileInfo {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
  /** Only from the admin's media library (admin/admin-file-info.ts): a folder id, or null for the root. */
  folder?: number | null;
}

const ALLOWED = new Set(['name', 'alternativeText', 'caption']);
/** alternativeText and caption are Strapi's `string`s, varchar(255): longer would be a database error (a 500 on PostgreSQL). */
const MAX_TEXT = 255;
/** A name is cut to its column's length (names.ts); this bounds what is read before that. */
const MAX_NAME_INPUT = 10_000;

/** Every fileInfo given, in order (each field may hold an object or an array). */
export function parseFileInfos(raw: string | string[] | undefined): FileInfo[] {
  if (raw === undefined) return [];
  const infos: FileInfo[] = [];
  for (const text of Array.isArray(raw) ? raw : [raw]) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ValidationError('fileInfo must be JSON');
    }
    for (const item of Array.isArray(value) ? value : [value]) infos.push(checkFileInfo(item));
  }
  return infos;
}

/** One fileInfo object (REST's parsed JSON, GraphQL's `FileInfoInput`): the same rules for both. */
export function checkFileInfo(value: unknown): FileInfo {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ValidationError('fileInfo must be an object or an array of objects');
  const info: FileInfo = {};
  for (const [key, item] of Object.entries(value)) {
    // Strapi's media library sends `folder`; Tessera has no folders to put files in, so only "none" is accepted.
    if (key === 'folder' && (item === null || item === undefined)) continue;
    if (!ALLOWED.has(key)) throw ValidationError.forField(['fileInfo', key], `fileInfo.${key} cannot be set`);
    if (item !== null && typeof item !== 'string') throw ValidationError.forField(['fileInfo', key], `fileInfo.${key} must be a string`);
    if (typeof item === 'string' && item.length > (key === 'name' ? MAX_NAME_INPUT : MAX_TEXT)) throw ValidationError.forField(['fileInfo', key], `fileInfo.${key} is too long`);
    if (key === 'name') {
      if (item === null) continue;
      info.name = sanitizeName(item);
    } else info[key as 'alternativeText' | 'caption'] = item as string | null;
  }
  return info;
}

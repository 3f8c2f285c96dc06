/**
 * Files and folders as the admin routes answer them (Strapi 4.26.2's shapes,
 * recorded): a file has the content API's keys plus `folderPath` before its
 * timestamps, then — depending on the route — its creator
 * (`{ id, firstname, lastname, username }`), its folder and `isUrlSigned`
 * (true when a private provider signed its urls for this answer).
 */
import type { App } from '@tessera/core';
import { FILE_UID, type Entity } from '@tessera/database';
import { FILE_KEYS } from '../content-types/file';
import type { ProviderFile } from '../providers/types';
import { present, type FileObject } from '../services/upload';
import { FOLDER_FIELDS } from './folders';

/** The admin users table's uid (Strapi's): only the creator's public name is read from it. */
const ADMIN_USER_UID = 'admin::user';
const CREATOR_FIELDS = ['id', 'firstname', 'lastname', 'username'];

export interface AdminFileExtras {
  /** Adds `createdBy` (the creator or null). */
  creator?: Record<string, unknown> | null;
  /** Adds `folder` (the folder or null). */
  folder?: Entity | null;
  /** Adds `isUrlSigned`, signing the urls when the provider is private. */
  signed?: boolean;
  /** Keys answered first (a list whose query Strapi joins answers its sorted columns first). */
  sortedFirst?: string[];
}

/** A file row in the admin's shape. */
export async function adminFile(app: App, row: Entity, extras: AdminFileExtras = {}): Promise<FileObject> {
  const known: ReadonlySet<string> = new Set(FILE_KEYS);
  const added = app.db.entity(FILE_UID).publicColumns.map((column) => column.name).filter((name) => !known.has(name));
  const base = present(row, added);
  const full: FileObject = {};
  for (const [key, value] of Object.entries(base)) {
    if (key === 'createdAt') full.folderPath = row.folderPath ?? '/';
    full[key] = value;
  }
  const out: FileObject = {};
  for (const key of extras.sortedFirst ?? []) if (key in full) out[key] = full[key];
  Object.assign(out, full);
  if ('creator' in extras) out.createdBy = extras.creator ?? null;
  if ('folder' in extras) out.folder = extras.folder ? folderOnly(extras.folder) : null;
  if (extras.signed) return signUrls(app, out);
  return out;
}

/** A folder's own columns, in Strapi's order. */
export function folderOnly(folder: Entity): Record<string, unknown> {
  return Object.fromEntries(FOLDER_FIELDS.filter((key) => key in folder).map((key) => [key, folder[key]]));
}

/** The creators of these rows (one query), by id: Strapi answers a file's creator with its public name only. */
export async function creatorsOf(app: App, creatorIds: Array<number | null>): Promise<Map<number, Record<string, unknown>>> {
  const ids = [...new Set(creatorIds.filter((id): id is number => typeof id === 'number'))];
  if (ids.length === 0 || !app.contentTypes.has(ADMIN_USER_UID)) return new Map();
  const users = await app.db.query(ADMIN_USER_UID).findMany({ where: { id: { $in: ids } }, select: CREATOR_FIELDS });
  return new Map(users.map((user) => [user.id, Object.fromEntries(CREATOR_FIELDS.map((key) => [key, user[key] ?? null]))]));
}

/**
 * Strapi's `signFileUrls`: `isUrlSigned: false`, unless the file is the configured provider's and that provider
 * is private, when its url and its formats' urls are replaced by signed ones.
 */
async function signUrls(app: App, file: FileObject): Promise<FileObject> {
  const resolved = app.plugin('upload')!.service('upload').provider;
  const { provider } = resolved;
  const isPrivate = file.provider === resolved.name && typeof provider.isPrivate === 'function' && (await provider.isPrivate());
  if (!isPrivate || typeof provider.getSignedUrl !== 'function') return { ...file, isUrlSigned: false };
  const sign = async (target: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const { url } = await provider.getSignedUrl!(asProviderFile(target));
    return { ...target, url, isUrlSigned: true };
  };
  const signed = await sign(file);
  if (isRecord(signed.formats)) {
    const formats: Record<string, unknown> = {};
    for (const [name, format] of Object.entries(signed.formats)) formats[name] = isRecord(format) ? await sign(format) : format;
    signed.formats = formats;
  }
  return signed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a provider's `getSignedUrl` reads of a file or format (Strapi passes the object itself). */
function asProviderFile(target: Record<string, unknown>): ProviderFile {
  const text = (key: string) => (typeof target[key] === 'string' ? (target[key] as string) : '');
  const metadata = target.provider_metadata;
  return {
    name: text('name'),
    hash: text('hash'),
    ext: text('ext'),
    mime: text('mime'),
    size: typeof target.size === 'number' ? target.size : Number(target.size ?? 0),
    url: text('url'),
    path: typeof target.path === 'string' ? target.path : null,
    provider_metadata: isRecord(metadata) ? metadata : null,
  };
}

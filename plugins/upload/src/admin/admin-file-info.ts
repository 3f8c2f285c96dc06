/**
 * The admin upload route's `fileInfo` form field, read as Strapi 4.26.2's
 * admin controller reads it (`validateUploadBody`, yup not strict): one JSON
 * object (the media library sends one file per request), whose `name`,
 * `alternativeText` and `caption` are strings or null and whose `folder` is
 * a folder that exists. Other keys are ignored, as Strapi's upload ignores
 * them. Names and texts then go through the same rules as the content API's
 * (file-info.ts: neutralised names, bounded lengths).
 */
import type { App } from '@tessera/core';
import { checkFileInfo, type FileInfo } from '../file-info';
import { FOLDER_UID } from '../contract';
import { isRecord, isStrapiId, Issues, rowId, typeMessage } from './checks';

export interface AdminFileInfo extends FileInfo {
  /** A folder id, null for the root, undefined to leave a file where it is. */
  folder?: number | null;
}

/** yup's object cast: a JSON string becomes what it parses to, when that is an object. */
function castObject(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : raw;
  } catch {
    return raw;
  }
}

export async function readAdminFileInfo(app: App, raw: string | string[] | undefined): Promise<AdminFileInfo> {
  if (raw === undefined) return {};
  const issues = new Issues();
  const value = castObject(raw);
  if (!isRecord(value)) {
    // Several fileInfo parts arrive as an array, which yup cannot cast to an object (Strapi's message, cast part included).
    issues.add(['fileInfo'], Array.isArray(value) ? typeMessage('fileInfo', 'object', null, value) : typeMessage('fileInfo', 'object', value));
    issues.throwIfAny();
  }
  const info = value as Record<string, unknown>;
  const texts: Record<string, string | null> = {};
  for (const key of ['name', 'alternativeText', 'caption'] as const) {
    const item = info[key];
    if (item === undefined) continue;
    if (item === null || typeof item === 'string') texts[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') texts[key] = String(item);
    else issues.add(['fileInfo', key], typeMessage(`fileInfo.${key}`, 'string', item));
  }
  let folder: number | null | undefined;
  if (info.folder === null) folder = null;
  else if (info.folder !== undefined) {
    if (!isStrapiId(info.folder)) issues.add(['fileInfo', 'folder'], typeMessage('fileInfo.folder', 'strapiID', info.folder));
    else {
      const id = rowId(info.folder);
      if (id === null || (await app.db.query(FOLDER_UID).count({ where: { id } })) === 0) issues.add(['fileInfo', 'folder'], 'the folder does not exist');
      else folder = id;
    }
  }
  issues.throwIfAny();
  const checked: AdminFileInfo = checkFileInfo(texts);
  if (folder !== undefined) checked.folder = folder;
  return checked;
}

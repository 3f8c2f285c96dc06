/**
 * The upload service's Strapi v4 signature, for server code (seeds,
 * bootstrap scripts, plugins): `upload({ data, files })`, where `files` is
 * one file or a list of formidable-like objects `{ path | filepath,
 * name | originalFilename, type | mimetype, size }` and `data` holds
 * `fileInfo` (one object, or one per file) and optionally `ref`, `refId`,
 * `field` to link the files to an entry. The caller is trusted, as all
 * server code is; the file itself is read, never moved or deleted.
 */
import fs from 'node:fs';
import { ValidationError } from '@tessera/errors';
import { Caller, type App } from '@tessera/core';
import { checkFileInfo, type FileInfo } from './file-info';
import { linkTarget, type LinkTarget } from './link';
import type { IncomingFile } from './multipart';

export interface StrapiUploadFile {
  path?: string;
  filepath?: string;
  name?: string;
  originalFilename?: string | null;
  type?: string;
  mimetype?: string;
  size?: number;
}

export interface StrapiUploadCall {
  data?: { fileInfo?: Record<string, unknown> | Array<Record<string, unknown>>; ref?: string; refId?: string | number; field?: string; [key: string]: unknown };
  files: StrapiUploadFile | StrapiUploadFile[];
}

export function isStrapiUploadCall(value: unknown): value is StrapiUploadCall {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'files' in value;
}

/** The kernel's arguments for one Strapi-style call. */
export async function fromStrapiUploadCall(app: App, call: StrapiUploadCall): Promise<{ files: IncomingFile[]; infos: FileInfo[]; link: LinkTarget | null }> {
  const files = (Array.isArray(call.files) ? call.files : [call.files]).map(incomingFile);
  const rawInfos = call.data?.fileInfo === undefined ? [] : Array.isArray(call.data.fileInfo) ? call.data.fileInfo : files.map(() => call.data!.fileInfo as Record<string, unknown>);
  const infos = rawInfos.map((info) => checkFileInfo(info));
  const { ref, refId, field } = call.data ?? {};
  const fields: Record<string, string> = {};
  if (ref !== undefined) fields.ref = String(ref);
  if (refId !== undefined) fields.refId = String(refId);
  if (field !== undefined) fields.field = String(field);
  return { files, infos, link: await linkTarget(app, fields, Caller.server) };
}

function incomingFile(file: StrapiUploadFile, index: number): IncomingFile {
  const filepath = file?.filepath ?? file?.path;
  if (typeof filepath !== 'string' || filepath === '') throw ValidationError.forField(['files', String(index)], 'each file needs a path (path or filepath)');
  // The bytes on disk are the size (a caller's `size` may be stale or missing).
  let size: number;
  try {
    size = fs.statSync(filepath).size;
  } catch {
    throw ValidationError.forField(['files', String(index)], `no file at ${filepath}`);
  }
  return { filepath, originalFilename: file.originalFilename ?? file.name ?? null, size };
}

/**
 * One uploaded file made ready to store: its real type (sniffed), checked
 * against the allowed/denied types, a generated hash, and for images the
 * dimensions, the optional optimised original and the formats.
 */
import { ValidationError } from '@tessera/errors';
import { mimeMatches, type UploadConfig } from './config';
import type { FileInfo } from './file-info';
import { dimensions, optimize, renditions, type Rendition } from './images';
import type { IncomingFile } from './multipart';
import { generateHash, sanitizeName } from './names';
import { sniffFile } from './sniff';

export interface PreparedFile {
  /** The temp file holding the client's bytes. */
  filepath: string;
  name: string;
  hash: string;
  ext: string;
  mime: string;
  width: number | null;
  height: number | null;
  /** The re-encoded original, when smaller than the upload. */
  optimized: Buffer | null;
  sizeInBytes: number;
  renditions: Rendition[];
}

export async function prepareFile(file: IncomingFile, info: FileInfo, config: UploadConfig, hash?: string): Promise<PreparedFile> {
  const clientName = sanitizeName(file.originalFilename);
  const name = info.name ?? clientName;
  const { mime, ext } = await sniffFile(file.filepath, clientName);
  checkType(mime, config);
  const source = { filepath: file.filepath, mime };
  let size = await dimensions(source);
  const made = size ? await renditions(source, size, config.responsiveDimensions ? config.breakpoints : null) : [];
  // A header sharp can read over pixels it cannot decode: an ordinary file, not an image.
  if (made === null) size = null;
  const optimized = size && config.sizeOptimization ? await optimize(source, file.size) : null;
  return {
    filepath: file.filepath,
    name,
    hash: hash ?? generateHash(name),
    ext,
    mime,
    width: size?.width ?? null,
    height: size?.height ?? null,
    optimized,
    sizeInBytes: optimized?.length ?? file.size,
    renditions: made ?? [],
  };
}

function checkType(mime: string, config: UploadConfig): void {
  const { allowedTypes, deniedTypes } = config.security ?? {};
  const denied = (deniedTypes && mimeMatches(mime, deniedTypes)) || (allowedTypes && !mimeMatches(mime, allowedTypes));
  if (denied) throw new ValidationError(`File type ${mime} is not allowed`);
}

/** Kilobytes with 2 decimals, as Strapi stores `size`. */
export function kilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

/**
 * One uploaded file made ready to store: its real type (sniffed), checked
 * against the allowed/denied types, a generated hash, and for images the
 * dimensions, the optional optimised original and the formats, made by the
 * image-manipulation service (services/image-manipulation.ts).
 */
import fs from 'node:fs';
import { ValidationError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { mimeMatches, type UploadConfig } from './config';
import type { FileInfo } from './file-info';
import type { IncomingFile } from './multipart';
import { generateHash, sanitizeName } from './names';
import { boundTo, type ImageFile, type ImageManipulation, type ResponsiveFormat } from './services/image-manipulation';
import { dimensions, isResizable } from './images';
import { kilobytes } from './sizes';
import { sniffFile } from './sniff';

export { kilobytes } from './sizes';

export interface PreparedFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  width: number | null;
  height: number | null;
  /** The file to store as the original: the client's, or what `optimize` made of it. */
  original: ImageFile;
  /** The thumbnail first, then the responsive formats, as the image functions made them. */
  formats: ResponsiveFormat[];
}

interface Processed {
  file: ImageFile;
  width: number | null;
  height: number | null;
  formats: ResponsiveFormat[];
}

/** `workDir`: the folder image functions may write to (`tmpWorkingDirectory`); the caller removes it. */
export async function prepareFile(app: App, file: IncomingFile, info: FileInfo, config: UploadConfig, workDir: string, hash?: string): Promise<PreparedFile> {
  const clientName = sanitizeName(file.originalFilename);
  const name = info.name ?? clientName;
  const { mime, ext } = await sniffFile(file.filepath, clientName);
  checkType(mime, config);
  const { filepath } = file;
  const data: ImageFile = {
    name, hash: hash ?? generateHash(name), ext, mime, path: null, filepath,
    size: kilobytes(file.size), sizeInBytes: file.size, tmpWorkingDirectory: workDir,
    getStream: () => fs.createReadStream(filepath),
  };
  const image = (await processImage(app, { ...data }, config.imagePixelLimit)) ?? { file: data, width: null, height: null, formats: [] };
  return { name, hash: data.hash, ext, mime, width: image.width, height: image.height, original: image.file, formats: image.formats };
}

/**
 * Strapi's image steps, in Strapi's order (its upload service's `enhanceAndValidateFile` then `uploadImage`), each
 * function looked up on the service when it is called. Anything that fails makes the upload an ordinary file —
 * no dimensions, no formats, the client's bytes — never an error (Strapi answers a 400 for a faulty image).
 */
async function processImage(app: App, file: ImageFile, pixelLimit: number): Promise<Processed | null> {
  // Looked up on each call, bound to this app when the service was made without one (image-manipulation.ts).
  const images = (): ImageManipulation => {
    const service = app.plugin('upload')!.service('image-manipulation');
    return new Proxy(service, { get: (target, name, receiver) => boundTo(app, Reflect.get(target, name, receiver)) });
  };
  try {
    if (!(await images().isImage(file))) return null;
    const oversized = await overPixelLimit(file, pixelLimit);
    if (oversized) {
      app.log.warn(`upload: ${file.name} is ${oversized.width} × ${oversized.height} pixels, over imagePixelLimit (${pixelLimit}): stored as sent, without formats`);
      return { file, ...oversized, formats: [] };
    }
    if (await images().isFaultyImage(file)) return null;
    let current = file;
    if (await images().isOptimizableImage(current)) current = await images().optimize(current);
    const { width, height } = await images().getDimensions(current);
    Object.assign(current, { width, height });
    const formats: ResponsiveFormat[] = [];
    if (await images().isResizableImage(current)) {
      const thumbnail = await images().generateThumbnail(current);
      if (thumbnail) formats.push({ key: 'thumbnail', file: thumbnail });
      const responsive = await images().generateResponsiveFormats(current);
      if (Array.isArray(responsive)) for (const format of responsive) if (format) formats.push(format);
    }
    return { file: current, width: width ?? null, height: height ?? null, formats };
  } catch (error) {
    app.log.debug(`upload: ${file.name} is stored as an ordinary file: ${(error as Error).message}`);
    return null;
  }
}

/**
 * The header's width and height when the image has more pixels than `limit`: read before anything decodes the pixels
 * (the faulty-image check already does), with Tessera's own reader, so a replaced image service cannot skip the limit.
 */
async function overPixelLimit(file: ImageFile, limit: number): Promise<{ width: number; height: number } | null> {
  if (!isResizable(file.mime) || typeof file.filepath !== 'string') return null;
  const measured = await dimensions({ input: file.filepath, mime: file.mime });
  return measured && measured.width * measured.height > limit ? measured : null;
}

function checkType(mime: string, config: UploadConfig): void {
  const { allowedTypes, deniedTypes } = config.security ?? {};
  const denied = (deniedTypes && mimeMatches(mime, deniedTypes)) || (allowedTypes && !mimeMatches(mime, allowedTypes));
  if (denied) throw new ValidationError(`File type ${mime} is not allowed`);
}

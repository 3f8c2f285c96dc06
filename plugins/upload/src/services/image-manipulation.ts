/**
 * The image-manipulation service (`plugin::upload.image-manipulation`), with
 * Strapi v4's function names and signatures: each takes the file being
 * uploaded in Strapi's shape (`ImageFile`). The upload looks each function up
 * on the service when it runs (prepare.ts), as Strapi's upload service does,
 * so a plugin or an app that replaces one — by assignment in its register, or
 * through `src/extensions/upload/strapi-server.js` — is the one called.
 *
 * These defaults are Tessera's image work: they read a file's bytes from
 * `buffer` when an earlier step made them (the re-encoded original), else
 * from `file.filepath`, and keep what they make in memory (`buffer`).
 * Functions written for Strapi write files instead (`filepath`, `getStream`);
 * both are stored.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ResizeOptions as SharpResizeOptions } from 'sharp';
import type { App } from '@tessera/core';
import { DEFAULT_CONFIG, type UploadConfig } from '../config';
import { THUMBNAIL, dimensions, isMeasurable, isOptimizable, isResizable, isUndecodable, optimize as reencode, resized } from '../images';
import { effectiveSettings, type UploadSettings } from '../settings';
import { kilobytes } from '../sizes';

/** A file as Strapi's upload hands it to image functions, and as they return the files they make. */
export interface ImageFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path?: string | null;
  /** Where the bytes are on disk. Tessera's defaults leave it at the client's bytes. */
  filepath?: string;
  /** Kilobytes, 2 decimals. */
  size?: number;
  sizeInBytes?: number;
  width?: number | null;
  height?: number | null;
  /** A folder for the files a function writes (Strapi's); one per upload call, removed after it. */
  tmpWorkingDirectory?: string;
  getStream?: () => Readable;
  /** Tessera: the bytes in memory, stored instead of `filepath` when present. */
  buffer?: Buffer;
  [key: string]: unknown;
}

export interface ResponsiveFormat {
  key: string;
  file: ImageFile;
}

/** sharp's resize options, given to it as they come (Strapi's `resizeFileTo` passes the caller's object to `resize`). */
export type ResizeOptions = SharpResizeOptions;

export interface ImageManipulation {
  isImage(file: ImageFile): Promise<boolean>;
  /** Deprecated in Strapi 4 (same as isOptimizableImage). */
  isSupportedImage(file: ImageFile): Promise<boolean>;
  isFaultyImage(file: ImageFile): Promise<boolean>;
  isOptimizableImage(file: ImageFile): Promise<boolean>;
  isResizableImage(file: ImageFile): Promise<boolean>;
  getDimensions(file: ImageFile): Promise<{ width: number | null; height: number | null }>;
  generateThumbnail(file: ImageFile): Promise<ImageFile | null>;
  /** Strapi's answer may hold holes (`undefined` for a breakpoint the image is not larger than). */
  generateResponsiveFormats(file: ImageFile): Promise<Array<ResponsiveFormat | null | undefined>>;
  optimize(file: ImageFile): Promise<ImageFile>;
  resizeFileTo(file: ImageFile, options: ResizeOptions, names: { name: string; hash: string }): Promise<ImageFile>;
}

/**
 * The service for `app`. Without one — Strapi code calling the factory bare, `services['image-manipulation']()`, as
 * Strapi's own factory ignores its argument and reads `global.strapi` — the functions that read the upload's config
 * and settings (`optimize`, `generateResponsiveFormats`) cannot run alone: the upload binds each function of such a
 * service to its own app when it calls it (`boundTo`), and a direct call says what is missing.
 */
export function imageManipulationService(app?: App): ImageManipulation {
  if (!app) return appLessService();
  return imageFunctions({
    settings: () => effectiveSettings(app),
    breakpoints: () => ({ ...DEFAULT_CONFIG, ...(app.config.get('plugin.upload', {}) as Partial<UploadConfig>) }).breakpoints,
  });
}

/** What the functions read of the app: the stored settings and the configured breakpoints. */
interface AppReads {
  settings(): Promise<UploadSettings>;
  breakpoints(): Record<string, number>;
}

function imageFunctions(reads: AppReads): ImageManipulation {
  // The bytes the file stands for: what optimize made (kept in memory) wins over the client's file, as it is stored.
  const sourceOf = (file: ImageFile) => ({ input: Buffer.isBuffer(file.buffer) ? file.buffer : requirePath(file), mime: file.mime });

  const getDimensions = async (file: ImageFile) => (await dimensions(sourceOf(file))) ?? { width: null, height: null };

  // Tessera's renditions keep their bytes in memory, named as Strapi names them (`<key>_<name>`, `<key>_<hash>`).
  const resizeFileTo = async (file: ImageFile, options: ResizeOptions, names: { name: string; hash: string }): Promise<ImageFile> => {
    const made = await resized(sourceOf(file), options);
    return inMemory({ ...names, ext: file.ext, mime: file.mime, path: file.path ?? null, width: made.width, height: made.height }, made.buffer);
  };

  const isOptimizableImage = async (file: ImageFile) => isOptimizable(file.mime);

  return {
    isImage: async (file) => isMeasurable(file.mime) && (await dimensions(sourceOf(file))) !== null,
    isSupportedImage: isOptimizableImage,
    // SVG pixels are never decoded here (no rasterising of markup): only the types formats are made of are checked.
    isFaultyImage: async (file) => isResizable(file.mime) && (await isUndecodable(requirePath(file))),
    isOptimizableImage,
    isResizableImage: async (file) => isResizable(file.mime),
    getDimensions,
    resizeFileTo,
    async generateThumbnail(file) {
      if (!((file.width ?? 0) > THUMBNAIL.width || (file.height ?? 0) > THUMBNAIL.height)) return null;
      return resizeFileTo(file, { width: THUMBNAIL.width, height: THUMBNAIL.height, fit: 'inside' }, { name: `${THUMBNAIL.name}_${file.name}`, hash: `${THUMBNAIL.name}_${file.hash}` });
    },
    async generateResponsiveFormats(file) {
      if (!(await reads.settings()).responsiveDimensions) return [];
      const breakpoints = reads.breakpoints();
      const { width, height } = await getDimensions(file);
      const formats: ResponsiveFormat[] = [];
      // One at a time: each holds a decoded image; in parallel they would multiply the memory of a large upload.
      for (const [key, side] of Object.entries(breakpoints ?? {})) {
        if (!((width ?? 0) > side || (height ?? 0) > side)) continue;
        formats.push({ key, file: await resizeFileTo(file, { width: side, height: side, fit: 'inside' }, { name: `${key}_${file.name}`, hash: `${key}_${file.hash}` }) });
      }
      return formats;
    },
    // Strapi's: re-encoded when either setting is on, at quality 80 or 100, the EXIF orientation applied only with
    // autoOrientation; kept when not larger than the original.
    async optimize(file) {
      const { sizeOptimization, autoOrientation } = await reads.settings();
      if (!sizeOptimization && !autoOrientation) return file;
      const source = sourceOf(file);
      const sizeInBytes = Buffer.isBuffer(source.input) ? source.input.length : (file.sizeInBytes ?? (await fs.promises.stat(source.input)).size);
      const buffer = await reencode(source, sizeInBytes, { reduceQuality: sizeOptimization, rotate: autoOrientation });
      // Not smaller: the original is kept, as Strapi keeps it.
      return buffer ? inMemory({ ...file }, buffer) : file;
    },
  };
}

/**
 * Carried by each function of an app-less service: the same function of a given app's service. A registered symbol,
 * not a module's map, so a second copy of this package in the process (a plugin's own install) binds them too.
 */
const BIND_TO_APP = Symbol.for('tessera.upload.image-manipulation.bindToApp');
const servicesOfApps = new WeakMap<App, ImageManipulation>();

function appLessService(): ImageManipulation {
  const missing = (): never => {
    throw new TypeError('plugin::upload.image-manipulation was made without { strapi } and called outside an upload: make it with ({ strapi })');
  };
  const service = imageFunctions({ settings: async () => missing(), breakpoints: missing });
  for (const name of Object.keys(service) as Array<keyof ImageManipulation>) {
    const bindToApp = (app: App): unknown => {
      let own = servicesOfApps.get(app);
      if (!own) servicesOfApps.set(app, (own = imageManipulationService(app)));
      return own[name];
    };
    // An alias (isSupportedImage is isOptimizableImage) is one function: it keeps its first name's binding.
    if (!Object.hasOwn(service[name], BIND_TO_APP)) Object.defineProperty(service[name], BIND_TO_APP, { value: bindToApp });
  }
  return service;
}

/**
 * `fn` as the upload of `app` calls it: a function of an app-less service (kept as it is by a plugin that spreads
 * `imageManipulation()` into its own service) becomes the same function of `app`'s service; any other is `fn`.
 */
export function boundTo<F>(app: App, fn: F): F {
  const bind: unknown = typeof fn === 'function' ? Reflect.get(fn, BIND_TO_APP) : undefined;
  return typeof bind === 'function' ? (bind(app) as F) : fn;
}

/** `file` holding `buffer` as its bytes, with Strapi's size fields and a stream of them. */
function inMemory(file: ImageFile, buffer: Buffer): ImageFile {
  return Object.assign(file, { buffer, size: kilobytes(buffer.length), sizeInBytes: buffer.length, getStream: () => Readable.from([buffer]) });
}

function requirePath(file: ImageFile): string {
  if (typeof file.filepath !== 'string') throw new TypeError(`image-manipulation: file ${file.name} has no filepath`);
  return file.filepath;
}

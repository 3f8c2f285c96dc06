/**
 * Images, with sharp: the primitives behind the default image-manipulation
 * service (services/image-manipulation.ts): dimensions, the re-encoding of
 * the original (`sizeOptimization`, `autoOrientation`), a resized copy, and
 * whether the pixels decode. Nothing here decides which formats are made.
 *
 * EXIF orientation is applied to the pixels only where the upload's
 * `autoOrientation` setting asks (the re-encoding of the original), as in
 * Strapi 4.26.2; dimensions are those of the stored pixels, as Strapi reads
 * them. An image left unrotated keeps its Orientation tag (and no other
 * metadata), so a viewer still shows it upright: Strapi drops it there.
 */
import type { ResizeOptions, Sharp } from 'sharp';
import { MAX_IMAGE_PIXELS } from './config';

/** Types sharp reads and writes back in the same format. SVG is never rasterised here. */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);
/**
 * Types whose width and height are stored: SVG too, read from its header as Strapi does (its `getDimensions` runs
 * for every type in `FORMATS_TO_PROCESS`, svg included), so frontends sizing an `<img>` get them; it gets no formats.
 */
const MEASURABLE = new Set([...RESIZABLE, 'image/svg+xml']);
const OPTIMIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/avif']);
export const THUMBNAIL = { name: 'thumbnail', width: 245, height: 156 };
/** Decompression bombs: sharp refuses images above this many pixels (an upload stops lower: `imagePixelLimit`, prepare.ts). */
const PIXEL_LIMIT = MAX_IMAGE_PIXELS;

export interface ImageSource {
  /** The file on disk (the upload's temp file), or bytes an earlier step made (the re-encoded original). */
  input: string | Buffer;
  mime: string;
}

export interface Rendition {
  buffer: Buffer;
  width: number;
  height: number;
}

let sharpModule: typeof import('sharp') | undefined;
function sharp(input: string | Buffer): Sharp {
  // Loaded on the first image: sharp's native binding is a noticeable share of a boot that may never see one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!sharpModule) {
    sharpModule = require('sharp') as typeof import('sharp');
    // Every input is a fresh temp file read once: libvips' operation cache would only hold memory.
    sharpModule.cache(false);
  }
  return sharpModule(input, { limitInputPixels: PIXEL_LIMIT, failOn: 'error' });
}

export function isResizable(mime: string): boolean {
  return RESIZABLE.has(mime);
}

export function isMeasurable(mime: string): boolean {
  return MEASURABLE.has(mime);
}

export function isOptimizable(mime: string): boolean {
  return OPTIMIZABLE.has(mime);
}

/** Width and height of the stored pixels (Strapi's `getDimensions`: an EXIF orientation does not swap them), or null when sharp cannot read the file. */
export async function dimensions(source: ImageSource): Promise<{ width: number; height: number } | null> {
  if (!MEASURABLE.has(source.mime)) return null;
  try {
    const meta = await sharp(source.input).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
  } catch {
    return null;
  }
}

export interface OptimizeOptions {
  /** Quality 80 (`sizeOptimization`) rather than 100. */
  reduceQuality: boolean;
  /** Apply the EXIF orientation to the pixels (`autoOrientation`). */
  rotate: boolean;
}

/** The original re-encoded as `options` say when that is not larger (Strapi's rule); null to keep the original bytes. */
export async function optimize(source: ImageSource, originalBytes: number, options: OptimizeOptions): Promise<Buffer | null> {
  if (!OPTIMIZABLE.has(source.mime)) return null;
  try {
    const pipeline = options.rotate ? sharp(source.input).rotate() : await keepingOrientation(sharp(source.input));
    // Strapi's optimize asks each format for its quality alone (`sharp()[format]({ quality })`), every other option
    // sharp's default: a baseline JPEG (a progressive one also made every format cut from it decode in full, about
    // ten times the work of a baseline one, which sharp shrinks while decoding), and for a PNG sharp's palette
    // quantisation, which is what makes Strapi's optimised PNGs smaller.
    const quality = options.reduceQuality ? 80 : 100;
    const buffer = await withQuality(pipeline, source.mime, quality).toBuffer();
    return buffer.length <= originalBytes ? buffer : null;
  } catch {
    return null;
  }
}

/**
 * `source` resized with sharp's `options` as given (Strapi passes the caller's object to `resize`: `fit`, `position`,
 * `withoutEnlargement`, …), written in its own format with sharp's default options, as Strapi's `resizeFileTo` writes
 * it (`toFile` to a name without an extension); throws when sharp cannot decode it.
 */
export async function resized(source: ImageSource, options: ResizeOptions): Promise<Rendition> {
  const pipeline = (await keepingOrientation(sharp(source.input))).resize(options);
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { buffer: data, width: info.width, height: info.height };
}

/** `pipeline` writing its input's EXIF Orientation tag (when not 1) and no other metadata. */
async function keepingOrientation(pipeline: Sharp): Promise<Sharp> {
  const { orientation } = await pipeline.metadata();
  return orientation && orientation !== 1 ? pipeline.withExif({ IFD0: { Orientation: String(orientation) } }) : pipeline;
}

/** True when sharp cannot decode the pixels (a readable header over broken data): Strapi's `isFaultyImage`. */
export async function isUndecodable(filepath: string): Promise<boolean> {
  try {
    await sharp(filepath).stats();
    return false;
  } catch {
    return true;
  }
}

/** `pipeline` in `mime`'s format at `quality`, every other option sharp's default (Strapi's `sharp()[format]({ quality })`). */
function withQuality(pipeline: Sharp, mime: string, quality: number): Sharp {
  switch (mime) {
    case 'image/jpeg':
      return pipeline.jpeg({ quality });
    case 'image/png':
      return pipeline.png({ quality });
    case 'image/webp':
      return pipeline.webp({ quality });
    case 'image/avif':
      return pipeline.avif({ quality });
    case 'image/tiff':
      return pipeline.tiff({ quality });
    default:
      return pipeline;
  }
}

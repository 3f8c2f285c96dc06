/**
 * Images, with sharp: the primitives behind the default image-manipulation
 * service (services/image-manipulation.ts): dimensions, the re-encoding of
 * the original (`sizeOptimization`), a resized copy, and whether the pixels
 * decode. Nothing here decides which formats are made.
 */
import type { Sharp } from 'sharp';

/** Types sharp reads and writes back in the same format. SVG is never rasterised here. */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);
/**
 * Types whose width and height are stored: SVG too, read from its header as Strapi does (its `getDimensions` runs
 * for every type in `FORMATS_TO_PROCESS`, svg included), so frontends sizing an `<img>` get them; it gets no formats.
 */
const MEASURABLE = new Set([...RESIZABLE, 'image/svg+xml']);
const OPTIMIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/avif']);
export const THUMBNAIL = { name: 'thumbnail', width: 245, height: 156 };
/** Decompression bombs: sharp refuses images above this many pixels. */
const PIXEL_LIMIT = 100_000_000;

export interface ImageSource {
  /** The file on disk (the upload's temp file). */
  filepath: string;
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

/** Width and height (orientation applied), or null when sharp cannot read the file. */
export async function dimensions(source: ImageSource): Promise<{ width: number; height: number } | null> {
  if (!MEASURABLE.has(source.mime)) return null;
  try {
    const meta = await sharp(source.filepath).metadata();
    if (!meta.width || !meta.height) return null;
    const rotated = (meta.orientation ?? 1) >= 5;
    return rotated ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  } catch {
    return null;
  }
}

/** The original re-encoded at quality 80 when that is smaller; null to keep the original bytes. */
export async function optimize(source: ImageSource, originalBytes: number): Promise<Buffer | null> {
  if (!OPTIMIZABLE.has(source.mime)) return null;
  try {
    const buffer = await encode(sharp(source.filepath).rotate(), source.mime).toBuffer();
    return buffer.length < originalBytes ? buffer : null;
  } catch {
    return null;
  }
}

/** `source` resized to fit `box` (never enlarged), re-encoded as its type; throws when sharp cannot decode it. */
export async function resized(source: ImageSource, box: { width: number; height: number }): Promise<Rendition> {
  const pipeline = sharp(source.filepath).rotate().resize(box.width, box.height, { fit: 'inside', withoutEnlargement: true });
  const { data, info } = await encode(pipeline, source.mime).toBuffer({ resolveWithObject: true });
  return { buffer: data, width: info.width, height: info.height };
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

function encode(pipeline: Sharp, mime: string): Sharp {
  switch (mime) {
    case 'image/jpeg':
      return pipeline.jpeg({ quality: 80, progressive: true });
    case 'image/png':
      return pipeline.png({ compressionLevel: 9 });
    case 'image/webp':
      return pipeline.webp({ quality: 80 });
    case 'image/avif':
      return pipeline.avif({ quality: 80 });
    case 'image/tiff':
      return pipeline.tiff({ quality: 80 });
    default:
      return pipeline;
  }
}

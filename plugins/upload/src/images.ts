/**
 * Images, with sharp: dimensions, the optional re-encoding of the original
 * (`sizeOptimization`), the `thumbnail` (fits 245×156) and the breakpoint
 * formats. A format is made only when the original is larger than it, as in
 * Strapi. Anything sharp cannot decode is an ordinary file: no dimensions,
 * no formats, never an error.
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
  /** `thumbnail`, `large`, ... */
  key: string;
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

/** The thumbnail and breakpoint formats this image is large enough for, in that order; null when sharp cannot decode it. */
export async function renditions(
  source: ImageSource,
  size: { width: number; height: number },
  breakpoints: Record<string, number> | null,
): Promise<Rendition[] | null> {
  if (!isResizable(source.mime)) return [];
  const wanted: Array<{ key: string; width: number; height: number }> = [];
  if (size.width > THUMBNAIL.width || size.height > THUMBNAIL.height) wanted.push({ key: THUMBNAIL.name, width: THUMBNAIL.width, height: THUMBNAIL.height });
  for (const [key, side] of Object.entries(breakpoints ?? {})) {
    if (size.width > side || size.height > side) wanted.push({ key, width: side, height: side });
  }
  const made: Rendition[] = [];
  try {
    for (const box of wanted) {
      const pipeline = sharp(source.filepath).rotate().resize(box.width, box.height, { fit: 'inside', withoutEnlargement: true });
      const { data, info } = await encode(pipeline, source.mime).toBuffer({ resolveWithObject: true });
      made.push({ key: box.key, buffer: data, width: info.width, height: info.height });
    }
  } catch {
    return null;
  }
  return made;
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

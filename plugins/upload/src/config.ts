/**
 * The plugin's config (`config/plugins.ts` → `upload.config`), Strapi v4's
 * keys: `provider` + `providerOptions`, `sizeLimit` (bytes), `breakpoints`,
 * `security.allowedTypes` / `security.deniedTypes` (MIME patterns, `image/*`
 * style), Tessera's `imagePixelLimit`, and the stored settings `sizeOptimization`, `responsiveDimensions`,
 * `autoOrientation` (settings.ts).
 */
export interface UploadConfig {
  /** `local` (default), `aws-s3` (alias `s3`), a package name, or a provider object `{ init }`. */
  provider: string | { init(options: unknown): unknown };
  providerOptions: Record<string, unknown>;
  /** Strapi's per-method parameters, passed to the provider's `upload` / `uploadStream` / `delete`. */
  actionOptions?: Partial<Record<'upload' | 'uploadStream' | 'delete', Record<string, unknown>>>;
  /** Largest amount of file bytes one request may carry; more is a 413 while streaming. */
  sizeLimit: number;
  /** Responsive formats: name → largest side in pixels. */
  breakpoints: Record<string, number>;
  /**
   * The stored settings (settings.ts), when given here: written over the stored ones at each boot. Re-encode images
   * (quality 80, metadata dropped) when that does not make them larger.
   */
  sizeOptimization?: boolean;
  /** Make the breakpoint formats (the thumbnail is always made); a stored setting, as sizeOptimization. */
  responsiveDimensions?: boolean;
  /** Re-encode images with their EXIF orientation applied to the pixels (Strapi's default: off); a stored setting, as sizeOptimization. */
  autoOrientation?: boolean;
  security: { allowedTypes?: string[]; deniedTypes?: string[] };
  /**
   * Tessera: an image of more pixels than this is stored as sent, with its width and height but no formats and no
   * re-encoding, and a log line says why. Decoding is what costs (a 292 KB PNG of 9,999 × 9,999 took 29 s and
   * 165 MB to make formats of), so this bounds the time and memory one upload can take. At most the decoder's
   * own limit (MAX_IMAGE_PIXELS).
   */
  imagePixelLimit: number;
}

/** sharp refuses to decode anything larger, whatever the config (images.ts). */
export const MAX_IMAGE_PIXELS = 100_000_000;

export const DEFAULT_CONFIG: UploadConfig = {
  provider: 'local',
  providerOptions: {},
  sizeLimit: 200 * 1024 * 1024,
  breakpoints: { large: 1000, medium: 750, small: 500 },
  security: {},
  // A 24-megapixel camera's photos (6,000 × 4,000) get their formats; larger ones are stored as sent.
  imagePixelLimit: 25_000_000,
};

export function validateConfig(config: Record<string, unknown>): void {
  const { provider, sizeLimit, breakpoints, security } = config as Partial<UploadConfig>;
  if (typeof provider !== 'string' && (typeof provider !== 'object' || provider === null || typeof provider.init !== 'function')) {
    throw new Error('provider must be a name ("local", "aws-s3", a package) or an object with init()');
  }
  if (typeof sizeLimit !== 'number' || !Number.isSafeInteger(sizeLimit) || sizeLimit < 1) throw new Error('sizeLimit must be a positive integer (bytes)');
  if (typeof breakpoints !== 'object' || breakpoints === null) throw new Error('breakpoints must be an object { name: pixels }');
  for (const [name, value] of Object.entries(breakpoints)) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(name)) throw new Error(`breakpoints.${name}: names are letters, digits, - and _`);
    if (!Number.isInteger(value) || value < 1) throw new Error(`breakpoints.${name} must be a positive integer`);
  }
  const { imagePixelLimit } = config as Partial<UploadConfig>;
  if (typeof imagePixelLimit !== 'number' || !Number.isSafeInteger(imagePixelLimit) || imagePixelLimit < 1 || imagePixelLimit > MAX_IMAGE_PIXELS) {
    throw new Error(`imagePixelLimit must be a positive integer of at most ${MAX_IMAGE_PIXELS} (pixels)`);
  }
  for (const key of ['sizeOptimization', 'responsiveDimensions', 'autoOrientation'] as const) {
    const value = (config as Partial<UploadConfig>)[key];
    if (value !== undefined && typeof value !== 'boolean') throw new Error(`${key} must be true or false`);
  }
  for (const key of ['allowedTypes', 'deniedTypes'] as const) {
    const list = security?.[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== 'string'))) throw new Error(`security.${key} must be a list of MIME types`);
  }
}

/** `image/*` matches every image type; an exact type matches itself. */
export function mimeMatches(mime: string, patterns: string[]): boolean {
  return patterns.some((pattern) => (pattern.endsWith('/*') ? mime.startsWith(pattern.slice(0, -1)) : pattern === mime || pattern === '*'));
}

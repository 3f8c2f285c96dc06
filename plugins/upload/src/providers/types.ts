/**
 * Storage providers, in Strapi v4's shape: a module `{ init(options) }`
 * whose result stores and deletes files. `upload`/`uploadStream` set
 * `file.url` (and may set `file.provider_metadata`); `delete` removes what
 * `upload` stored. Strapi's own provider packages fit this interface.
 */
import type { Readable } from 'node:stream';

export interface ProviderFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  /** Kilobytes, 2 decimals. */
  size: number;
  url?: string;
  path?: string | null;
  provider_metadata?: Record<string, unknown> | null;
  /** Bytes in memory (image formats), when there is no stream. */
  buffer?: Buffer;
  /** Bytes as a stream (uploaded files, read from their temp file). */
  stream?: Readable;
  /** Length of `buffer`/`stream` in bytes. */
  sizeInBytes?: number;
}

/** Per-call parameters (Strapi's `actionOptions[method]`, e.g. S3 `ACL` or `CacheControl`). */
export type ActionParams = Record<string, unknown> | undefined;

export interface StorageProvider {
  upload(file: ProviderFile, params?: ActionParams): Promise<void>;
  uploadStream?(file: ProviderFile, params?: ActionParams): Promise<void>;
  delete(file: ProviderFile, params?: ActionParams): Promise<void>;
  isPrivate?(): boolean | Promise<boolean>;
  getSignedUrl?(file: ProviderFile): Promise<{ url: string }>;
}

export interface ProviderModule {
  init(options: unknown): StorageProvider;
}

/**
 * Putting a prepared file (the original and its formats) into the provider,
 * and taking stored files out again. What was stored is returned so a failed
 * write can remove it: no orphan bytes, no row without bytes.
 */
import fs from 'node:fs';
import type { PreparedFile } from './prepare';
import type { ImageFile } from './services/image-manipulation';
import { kilobytes } from './sizes';
import type { ResolvedProvider } from './providers/resolve';
import type { ProviderFile } from './providers/types';

export interface FormatObject {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number | null;
  height: number | null;
  size: number;
  sizeInBytes: number;
  url: string;
  provider_metadata?: unknown;
}

export interface StoredFile {
  url: string;
  /** Of the stored original, kilobytes (2 decimals). */
  size: number;
  provider_metadata: Record<string, unknown> | null;
  formats: Record<string, FormatObject> | null;
  /** Everything put in the provider, for rollback. */
  objects: ProviderFile[];
}

export async function storeFile(storage: ResolvedProvider, file: PreparedFile): Promise<StoredFile> {
  const objects: ProviderFile[] = [];
  try {
    const original = await providerFile(file.original, file);
    await put(storage, original.file, original.bytes);
    objects.push(original.file);
    let formats: Record<string, FormatObject> | null = null;
    for (const { key, file: made } of file.formats) {
      const format = await providerFile(made, file);
      await put(storage, format.file, format.bytes);
      objects.push(format.file);
      formats ??= {};
      formats[key] = formatObject(format.file, made.width ?? null, made.height ?? null);
    }
    return { url: original.file.url!, size: original.file.size, provider_metadata: original.file.provider_metadata ?? null, formats, objects };
  } catch (error) {
    await removeObjects(storage, objects);
    throw error;
  }
}

/**
 * What the provider gets for a file the image functions handed over: its bytes in memory (Tessera's), on disk
 * (Strapi's `filepath`), or only as `getStream` (read into memory); names and type fall back to the upload's.
 */
async function providerFile(made: ImageFile, upload: PreparedFile): Promise<{ file: ProviderFile; bytes: Buffer | string }> {
  let bytes: Buffer | string;
  let sizeInBytes: number;
  if (made.buffer) [bytes, sizeInBytes] = [made.buffer, made.buffer.length];
  else if (typeof made.filepath === 'string') [bytes, sizeInBytes] = [made.filepath, (await fs.promises.stat(made.filepath)).size];
  else if (made.getStream) {
    const chunks: Buffer[] = [];
    for await (const chunk of made.getStream()) chunks.push(Buffer.from(chunk as Uint8Array));
    bytes = Buffer.concat(chunks);
    sizeInBytes = bytes.length;
  } else throw new Error(`upload: the image file ${made.name} has no bytes (buffer, filepath or getStream)`);
  const file: ProviderFile = {
    name: String(made.name ?? upload.name),
    hash: String(made.hash ?? upload.hash),
    ext: String(made.ext ?? upload.ext),
    mime: String(made.mime ?? upload.mime),
    size: kilobytes(sizeInBytes),
    sizeInBytes,
    path: null,
  };
  return { file, bytes };
}

/** Removes stored objects; failures are reported to `onError`, never thrown (the row is the truth). */
export async function removeObjects(storage: ResolvedProvider, objects: ProviderFile[], onError?: (error: unknown, file: ProviderFile) => void): Promise<void> {
  for (const object of objects) {
    try {
      await storage.provider.delete(object);
    } catch (error) {
      onError?.(error, object);
    }
  }
}

/** The original and format objects a file row describes (what `delete` needs). */
export function objectsOf(row: Record<string, unknown>): ProviderFile[] {
  const base = { mime: String(row.mime ?? ''), path: null };
  const objects: ProviderFile[] = [
    { ...base, name: String(row.name), hash: String(row.hash), ext: String(row.ext ?? ''), size: Number(row.size), url: String(row.url), provider_metadata: row.provider_metadata as Record<string, unknown> | null },
  ];
  const formats = (row.formats ?? {}) as Record<string, Partial<FormatObject>>;
  for (const format of Object.values(formats)) {
    if (!format || typeof format.hash !== 'string') continue;
    objects.push({ ...base, name: String(format.name), hash: format.hash, ext: String(format.ext ?? ''), size: Number(format.size), url: String(format.url) });
  }
  return objects;
}

/** Puts one object into the provider: from a path (streamed when the provider streams) or from memory. */
export async function put(storage: ResolvedProvider, file: ProviderFile, bytes: Buffer | string): Promise<void> {
  const { provider } = storage;
  if (typeof bytes === 'string') {
    if (provider.uploadStream) {
      file.stream = fs.createReadStream(bytes);
      try {
        await provider.uploadStream(file);
      } finally {
        file.stream.destroy();
        delete file.stream;
      }
      return;
    }
    // A provider without streams gets the bytes in memory (Strapi's `upload(file)` contract).
    bytes = await fs.promises.readFile(bytes);
  }
  file.buffer = bytes;
  try {
    await provider.upload(file);
  } finally {
    delete file.buffer;
  }
}

function formatObject(file: ProviderFile, width: number | null, height: number | null): FormatObject {
  const format: FormatObject = {
    name: file.name,
    hash: file.hash,
    ext: file.ext,
    mime: file.mime,
    path: null,
    width,
    height,
    size: file.size,
    sizeInBytes: file.sizeInBytes!,
    url: file.url!,
  };
  if (file.provider_metadata) format.provider_metadata = file.provider_metadata;
  return format;
}

/**
 * Putting a prepared file (the original and its formats) into the provider,
 * and taking stored files out again. What was stored is returned so a failed
 * write can remove it: no orphan bytes, no row without bytes.
 */
import fs from 'node:fs';
import { kilobytes, type PreparedFile } from './prepare';
import type { ResolvedProvider } from './providers/resolve';
import type { ProviderFile } from './providers/types';

export interface FormatObject {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  size: number;
  sizeInBytes: number;
  url: string;
  provider_metadata?: unknown;
}

export interface StoredFile {
  url: string;
  provider_metadata: Record<string, unknown> | null;
  formats: Record<string, FormatObject> | null;
  /** Everything put in the provider, for rollback. */
  objects: ProviderFile[];
}

export async function storeFile(storage: ResolvedProvider, file: PreparedFile): Promise<StoredFile> {
  const objects: ProviderFile[] = [];
  try {
    const original: ProviderFile = {
      name: file.name,
      hash: file.hash,
      ext: file.ext,
      mime: file.mime,
      size: kilobytes(file.sizeInBytes),
      sizeInBytes: file.sizeInBytes,
      path: null,
    };
    await put(storage, original, file.optimized ?? file.filepath);
    objects.push(original);
    let formats: Record<string, FormatObject> | null = null;
    for (const rendition of file.renditions) {
      const format: ProviderFile = {
        name: `${rendition.key}_${file.name}`,
        hash: `${rendition.key}_${file.hash}`,
        ext: file.ext,
        mime: file.mime,
        size: kilobytes(rendition.buffer.length),
        sizeInBytes: rendition.buffer.length,
        path: null,
      };
      await put(storage, format, rendition.buffer);
      objects.push(format);
      formats ??= {};
      formats[rendition.key] = formatObject(format, rendition.width, rendition.height);
    }
    return { url: original.url!, provider_metadata: original.provider_metadata ?? null, formats, objects };
  } catch (error) {
    await removeObjects(storage, objects);
    throw error;
  }
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

async function put(storage: ResolvedProvider, file: ProviderFile, bytes: Buffer | string): Promise<void> {
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

function formatObject(file: ProviderFile, width: number, height: number): FormatObject {
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

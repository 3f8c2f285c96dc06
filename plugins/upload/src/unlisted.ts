/**
 * Files kept outside the media library: stored through the app's provider like an upload, with no row in
 * `files` (Strapi's admin keeps its project logos so, in the core store). The upload plugin registers them as the
 * app's `media` file store (core's files/unlisted-files.ts contract). Their type is sniffed from the bytes, as
 * an upload's is, never taken from the client; images are measured.
 */
import type { ReceivedFile, StoredUnlistedFile, UnlistedFile } from '@tessera/core';
import { dimensions } from './images';
import { generateHash, sanitizeName } from './names';
import type { ResolvedProvider } from './providers/resolve';
import type { ProviderFile } from './providers/types';
import { kilobytes } from './sizes';
import { sniffFile } from './sniff';
import { put } from './store';

/** What a received file is: its name, a new hash, its sniffed type and extension, its size and dimensions. */
export async function describeUnlisted(file: ReceivedFile): Promise<UnlistedFile> {
  const name = sanitizeName(file.originalFilename);
  const { mime, ext } = await sniffFile(file.filepath, name);
  const measured = await dimensions({ input: file.filepath, mime });
  return { name, hash: generateHash(name), ext, mime, size: kilobytes(file.size), sizeInBytes: file.size, width: measured?.width ?? null, height: measured?.height ?? null };
}

export async function storeUnlisted(storage: ResolvedProvider, described: UnlistedFile, filepath: string): Promise<StoredUnlistedFile> {
  const object: ProviderFile = { name: described.name, hash: described.hash, ext: described.ext, mime: described.mime, size: described.size, sizeInBytes: described.sizeInBytes, path: null };
  await put(storage, object, filepath);
  return { ...described, url: object.url!, provider: storage.name };
}

/** Removes a stored unlisted file when the current provider stored it (another's bytes are not ours to reach). */
export async function removeUnlisted(storage: ResolvedProvider, stored: Partial<StoredUnlistedFile>): Promise<void> {
  if (stored.provider !== storage.name || typeof stored.hash !== 'string') return;
  const object: ProviderFile = { name: String(stored.name ?? stored.hash), hash: stored.hash, ext: String(stored.ext ?? ''), mime: String(stored.mime ?? ''), size: Number(stored.size ?? 0), url: stored.url, path: null };
  await storage.provider.delete(object);
}

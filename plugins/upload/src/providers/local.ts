/**
 * The default provider: files in the app's `public/uploads`, served at
 * `/uploads/<hash><ext>`. Every file is written to a temp file in the same
 * folder, then renamed: a reader never sees half a file, and a replaced
 * file switches atomically.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ProviderFile, StorageProvider } from './types';

export const UPLOADS_URL_PREFIX = '/uploads';

export function localProvider(uploadsDir: string): StorageProvider {
  const target = (file: ProviderFile) => path.join(uploadsDir, storedName(file));
  const write = async (file: ProviderFile) => {
    await fs.promises.mkdir(uploadsDir, { recursive: true });
    const temp = path.join(uploadsDir, `.tmp-${crypto.randomBytes(8).toString('hex')}`);
    try {
      if (file.stream) await pipeline(file.stream, fs.createWriteStream(temp, { flags: 'wx' }));
      else await fs.promises.writeFile(temp, file.buffer ?? Buffer.alloc(0), { flag: 'wx' });
      await fs.promises.rename(temp, target(file));
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    file.url = `${UPLOADS_URL_PREFIX}/${storedName(file)}`;
  };
  return {
    upload: write,
    uploadStream: write,
    async delete(file) {
      await fs.promises.rm(target(file), { force: true });
    },
  };
}

/** The hash and extension the server generated; both are checked so nothing escapes the folder. */
export function storedName(file: Pick<ProviderFile, 'hash' | 'ext'>): string {
  const name = `${file.hash}${file.ext ?? ''}`;
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?$/.test(name)) throw new Error(`refusing to store a file named ${JSON.stringify(name)}`);
  return name;
}

/**
 * The contract for files kept outside the media library (the admin's project logos): a plugin that stores files
 * (the upload plugin, with the app's provider) registers a store in `app.fileStores` under `media`, and a plugin
 * that keeps such files (the admin) uses it when present, neither looking the other up.
 */

/** A received file as the body parser left it (`ctx.request.files`). */
export interface ReceivedFile {
  filepath: string;
  /** The client's file name (untrusted display text). */
  originalFilename: string | null;
  /** Bytes on disk. */
  size: number;
}

export interface UnlistedFile {
  name: string;
  hash: string;
  ext: string;
  /** Sniffed from the bytes, never the client's claim. */
  mime: string;
  /** Kilobytes, 2 decimals. */
  size: number;
  sizeInBytes: number;
  width: number | null;
  height: number | null;
}

export interface StoredUnlistedFile extends UnlistedFile {
  url: string;
  /** The provider that stored it (`local`, `aws-s3`, …): only that provider may remove it. */
  provider: string;
}

export interface UnlistedFileStore {
  /** What a received file is: its name, a new hash, its sniffed type and extension, size and dimensions; nothing stored. */
  describe(file: ReceivedFile): Promise<UnlistedFile>;
  /** Stores a described file, with no media-library row. */
  store(file: UnlistedFile, filepath: string): Promise<StoredUnlistedFile>;
  /** Removes a stored file when the current provider stored it. */
  remove(file: Partial<StoredUnlistedFile>): Promise<void>;
}

/** The key the media library's store is registered under. */
export const MEDIA_FILE_STORE = 'media';

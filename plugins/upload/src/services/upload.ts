/**
 * The upload service (`plugin::upload.upload`): upload, replace, update the
 * info of, list, read and delete files. Bytes go to the provider first and
 * rows are written in one transaction after; when the transaction fails the
 * stored bytes are removed again. Deleting removes the row and its morph
 * links in one transaction, then the bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NotFoundError, ValidationError } from '@tessera/errors';
import { parseId, pluginState, type App, type Caller } from '@tessera/core';
import { FILE_UID, type Entity } from '@tessera/database';
import { DEFAULT_CONFIG, type UploadConfig } from '../config';
import { FILE_KEYS } from '../content-types/file';
import { FOLDER_UID } from '../uids';
import type { FileInfo } from '../file-info';
import { linkFiles, type LinkTarget } from '../link';
import { tooLarge, type IncomingFile } from '../multipart';
import { prepareFile, type PreparedFile } from '../prepare';
import { resolveProvider, type ResolvedProvider } from '../providers/resolve';
import { readSettings, writeSettings } from '../settings';
import { loadRelated } from '../related';
import { objectsOf, removeObjects, storeFile, type StoredFile } from '../store';
import { fromStrapiUploadCall, isStrapiUploadCall, type StrapiUploadCall } from '../strapi-upload-call';


export type FileObject = Record<string, unknown>;

/** The admin a write is made by (`createdBy`/`updatedBy`), as Strapi's `{ user }` option. */
export interface Editor {
  id: number;
}

export interface ReadOptions {
  caller: Caller;
  params?: Record<string, unknown>;
}

/**
 * The plugin's state in an app (the kernel's one pattern, `pluginState`): the storage provider, resolved once per
 * app. The service below is a view over the app, so every instance of it (Strapi code may make more) shares it.
 */
const providerOf = pluginState((app): ResolvedProvider => {
  const config = configOf(app);
  return resolveProvider(config.provider, config.providerOptions ?? {}, app.dir, config.actionOptions ?? {});
});

function configOf(app: App): UploadConfig {
  return { ...DEFAULT_CONFIG, ...(app.config.get('plugin.upload', {}) as Partial<UploadConfig>) };
}

export class UploadService {

  constructor(private readonly app: App) {}

  get config(): UploadConfig {
    return configOf(this.app);
  }

  /** Strapi's `getSettings()`: the stored `{ sizeOptimization, responsiveDimensions, autoOrientation }` (settings.ts). */
  getSettings(): Promise<Record<string, unknown> | null> {
    return readSettings(this.app);
  }

  /** Strapi's `setSettings(value)`: replaces the stored settings (booleans; anything else is a 400 and changes nothing). */
  setSettings(value: unknown): Promise<unknown> {
    return writeSettings(this.app, value);
  }

  /** The configured provider, initialised once. */
  get provider(): ResolvedProvider {
    return providerOf(this.app);
  }

  /**
   * New files, in order; linked to `link` when given. Server code may also call it as Strapi v4 does,
   * `upload({ data: { fileInfo, ref, refId, field }, files })` (strapi-upload-call.ts).
   */
  async upload(call: StrapiUploadCall): Promise<FileObject[]>;
  async upload(files: IncomingFile[], infos: FileInfo[], link: LinkTarget | null, editor?: Editor): Promise<FileObject[]>;
  async upload(filesOrCall: IncomingFile[] | StrapiUploadCall, infosGiven: FileInfo[] = [], linkGiven: LinkTarget | null = null, editor?: Editor): Promise<FileObject[]> {
    const { files, infos, link } = isStrapiUploadCall(filesOrCall)
      ? await fromStrapiUploadCall(this.app, filesOrCall)
      : { files: filesOrCall, infos: infosGiven, link: linkGiven };
    return (await this.uploadRows(files, infos, link, editor)).map((row) => this.present(row));
  }

  /** upload's rows, every column (the admin answers its own shape of them). */
  async uploadRows(files: IncomingFile[], infos: FileInfo[], link: LinkTarget | null, editor?: Editor): Promise<Entity[]> {
    if (files.length === 0) throw new ValidationError('Files are empty');
    this.checkSize(files);
    const workDir = await makeWorkDir();
    const prepared: PreparedFile[] = [];
    const stored: StoredFile[] = [];
    try {
      for (const [index, file] of files.entries()) prepared.push(await prepareFile(this.app, file, infos[index] ?? {}, this.config, workDir));
      for (const file of prepared) stored.push(await storeFile(this.provider, file));
      const rows = await this.app.db.transaction(async () => {
        const created: Entity[] = [];
        for (const [index, file] of prepared.entries()) {
          const info = infos[index] ?? {};
          const data = { ...this.row(file, stored[index], info), ...(await this.placement(info)), ...authorship(editor, true) };
          created.push(await this.app.db.query(FILE_UID).create({ data }));
        }
        if (link) await linkFiles(this.app, link, created.map((row) => row.id));
        return created;
      });
      return rows;
    } catch (error) {
      await removeObjects(this.provider, stored.flatMap((file) => file.objects));
      throw error;
    } finally {
      await removeWorkDir(workDir);
    }
  }

  /** New content for file `id`: same id and hash; the old bytes that were not overwritten are removed. */
  async replace(id: number, file: IncomingFile, info: FileInfo, editor?: Editor): Promise<FileObject> {
    return this.present(await this.replaceRow(id, file, info, editor));
  }

  /** replace's row, every column. */
  async replaceRow(id: number, file: IncomingFile, info: FileInfo, editor?: Editor): Promise<Entity> {
    this.checkSize([file]);
    const existing = await this.require(id);
    const workDir = await makeWorkDir();
    let prepared: PreparedFile;
    let stored: StoredFile;
    try {
      prepared = await prepareFile(this.app, file, info, this.config, workDir, String(existing.hash));
      stored = await storeFile(this.provider, prepared);
    } finally {
      await removeWorkDir(workDir);
    }
    let updated: Entity;
    try {
      const data: Record<string, unknown> = this.row(prepared, stored, info);
      if (info.alternativeText === undefined) delete data.alternativeText;
      if (info.caption === undefined) delete data.caption;
      // Strapi clears the old formats of a replaced file: none made is `{}`, not null.
      data.formats = stored.formats ?? {};
      delete data.folderPath;
      data.updatedAt = new Date();
      Object.assign(data, authorship(editor, false));
      updated = await this.app.db.transaction(async () => (await this.app.db.query(FILE_UID).update({ where: { id }, data }))!);
    } catch (error) {
      // Same hash and extension means the new bytes replaced the old ones; only what is new can go.
      const previous = new Set(objectsOf(existing).map((object) => `${object.hash}${object.ext}`));
      await removeObjects(this.provider, stored.objects.filter((object) => !previous.has(`${object.hash}${object.ext}`)));
      throw error;
    }
    const kept = new Set(stored.objects.map((object) => `${object.hash}${object.ext}`));
    await this.removeBytes(existing, (object) => !kept.has(`${object.hash}${object.ext}`));
    return updated;
  }

  /** name / alternativeText / caption, and (from the admin) the folder: the file and its folderPath move. */
  async updateInfo(id: number, info: FileInfo, editor?: Editor): Promise<FileObject> {
    return this.present(await this.updateInfoRow(id, info, editor));
  }

  /** updateInfo's row, every column (the admin answers its own shape of it). */
  async updateInfoRow(id: number, info: FileInfo, editor?: Editor): Promise<Entity> {
    await this.require(id);
    const data: Record<string, unknown> = { updatedAt: new Date(), ...authorship(editor, false) };
    for (const key of ['name', 'alternativeText', 'caption'] as const) if (info[key] !== undefined) data[key] = info[key];
    if (info.folder !== undefined) Object.assign(data, await this.placement(info));
    return (await this.app.db.query(FILE_UID).update({ where: { id }, data }))!;
  }

  /** Where a file with this info goes: its folder link and Strapi's `folderPath` (`/` at the root). */
  private async placement(info: FileInfo): Promise<Record<string, unknown>> {
    if (info.folder === undefined || info.folder === null) return info.folder === null ? { folder: null, folderPath: '/' } : {};
    const folder = await this.app.db.query(FOLDER_UID).findOne({ where: { id: info.folder }, select: ['path'] });
    if (!folder) throw ValidationError.forField(['fileInfo', 'folder'], 'the folder does not exist');
    return { folder: info.folder, folderPath: String(folder.path) };
  }

  /** Files as the caller may read them: filters, sort, fields, `start`/`limit` or `pagination`, populate (`related`). */
  async findMany({ caller, params = {} }: ReadOptions): Promise<FileObject[]> {
    const { wantsRelated, populate } = splitRelated(params.populate);
    const configured = Number(this.app.config.get('api.rest.maxLimit', 100));
    const maxLimit = Number.isInteger(configured) && configured > 0 ? configured : 100;
    const { results } = await this.app.contentOperations.find(FILE_UID, {
      caller,
      params: { ...readParams(params), populate, pagination: paginationOf(params) },
      // Strapi lists every file when no page is asked for; here that is at most api.rest.maxLimit.
      limits: { defaultLimit: maxLimit, maxLimit },
    });
    if (wantsRelated) await loadRelated(this.app, results, caller);
    return results.map((file) => this.present(file));
  }

  async findOne(id: unknown, { caller, params = {} }: ReadOptions): Promise<FileObject> {
    const { wantsRelated, populate } = splitRelated(params.populate);
    let file: Entity;
    try {
      file = await this.app.contentOperations.findOne(FILE_UID, id, { caller, params: { ...readParams(params), populate } });
    } catch (error) {
      if (error instanceof NotFoundError) throw fileNotFound();
      throw error;
    }
    if (wantsRelated) await loadRelated(this.app, [file], caller);
    return this.present(file);
  }

  /** Deletes the row, which takes every morph link with it (media fields pointing at it empty), then the bytes. */
  async remove(id: number): Promise<FileObject> {
    const existing = await this.require(id);
    await this.app.db.query(FILE_UID).delete({ id });
    await this.removeBytes(existing, () => true);
    return this.present(existing);
  }

  /**
   * A file as answered: Strapi's keys, then any other public attribute the file type was given — by a plugin's
   * register (strapi-plugin-placeholder's `placeholder`) or an extension — as Strapi answers every public attribute.
   */
  private present(file: Entity): FileObject {
    const known: ReadonlySet<string> = new Set(FILE_KEYS);
    const added = this.app.db.entity(FILE_UID).publicColumns.map((column) => column.name).filter((name) => !known.has(name));
    return present(file, added);
  }

  /** File rows by id (those that exist), every column, in id order. */
  findRows(ids: number[]): Promise<Entity[]> {
    return this.app.db.query(FILE_UID).findMany({ where: { id: { $in: ids } }, orderBy: [{ id: 'asc' }] });
  }

  /** A file row, trusted (private fields included); 404 `file.notFound` when absent. */
  async require(id: number): Promise<Entity> {
    const file = await this.app.db.query(FILE_UID).findOne({ where: { id } });
    if (!file) throw fileNotFound();
    return file;
  }

  /**
   * The parsers stop a body at `sizeLimit` while streaming; this holds the
   * limit for any other caller too (a file given twice counts once).
   */
  private checkSize(files: IncomingFile[]): void {
    const sizes = new Map(files.map((file) => [file.filepath, file.size]));
    const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
    if (total > this.config.sizeLimit) throw tooLarge(this.config.sizeLimit);
  }

  private row(file: PreparedFile, stored: StoredFile, info: FileInfo): Record<string, unknown> {
    return {
      name: file.name,
      alternativeText: info.alternativeText ?? null,
      caption: info.caption ?? null,
      width: file.width,
      height: file.height,
      formats: stored.formats,
      hash: file.hash,
      ext: file.ext,
      mime: file.mime,
      size: stored.size,
      url: stored.url,
      previewUrl: null,
      provider: this.provider.name,
      provider_metadata: stored.provider_metadata,
      folderPath: '/',
    };
  }

  /** Bytes of a file row, when it lives in the configured provider (a row from another provider keeps its bytes). */
  private async removeBytes(row: Entity, which: (object: { hash: string; ext: string }) => boolean): Promise<void> {
    if (row.provider !== this.provider.name) {
      this.app.log.warn(`upload: file ${row.id} is stored by provider "${String(row.provider)}", not "${this.provider.name}"; its bytes are left in place`);
      return;
    }
    await removeObjects(this.provider, objectsOf(row).filter(which), (error, object) =>
      this.app.log.warn(`upload: could not remove ${object.hash}${object.ext}: ${(error as Error).message}`),
    );
  }
}

/** Strapi's creator fields: both on a create, `updatedBy` on an edit; nothing without an admin. */
function authorship(editor: Editor | undefined, creating: boolean): Record<string, number> {
  if (!editor) return {};
  return creating ? { createdBy: editor.id, updatedBy: editor.id } : { updatedBy: editor.id };
}

/** The folder image functions written for Strapi write their files to (`tmpWorkingDirectory`), one per call. */
async function makeWorkDir(): Promise<string> {
  return fs.promises.mkdtemp(path.join(os.tmpdir(), 'tessera-upload-'));
}

async function removeWorkDir(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true });
}

export function fileNotFound(): NotFoundError {
  return new NotFoundError('file.notFound');
}

/** A file id from a path, query or GraphQL `ID`; anything else names no file (404, as an unknown id). */
export function fileId(value: unknown): number {
  try {
    return parseId(value);
  } catch {
    throw fileNotFound();
  }
}

/** A file object with Strapi's keys in Strapi's order, then the `added` attributes it has (plus `related` when populated). */
export function present(file: Entity, added: readonly string[] = []): FileObject {
  const out: FileObject = {};
  for (const key of FILE_KEYS) if (key in file) out[key] = key === 'formats' ? orderFormats(file.formats) : file[key];
  for (const key of added) if (key in file) out[key] = file[key];
  if ('related' in file) out.related = file.related;
  return out;
}

const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];

/**
 * Postgres' jsonb keeps keys sorted by length, not as written: formats are
 * put back in the order they were made (thumbnail, then the largest
 * breakpoint first) with Strapi's key order, so both databases answer alike.
 */
function orderFormats(formats: unknown): unknown {
  if (!formats || typeof formats !== 'object' || Array.isArray(formats)) return formats;
  const entries = Object.entries(formats as Record<string, unknown>);
  const width = (value: unknown) => Number((value as { width?: unknown })?.width ?? 0);
  entries.sort(([a, x], [b, y]) => (a === 'thumbnail' ? -1 : b === 'thumbnail' ? 1 : width(y) - width(x)));
  return Object.fromEntries(entries.map(([key, value]) => [key, orderKeys(value, FORMAT_KEYS)]));
}

function orderKeys(value: unknown, keys: string[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in source) out[key] = source[key];
  for (const [key, item] of Object.entries(source)) if (!(key in out)) out[key] = item;
  return out;
}

function readParams(params: Record<string, unknown>): Record<string, unknown> {
  const { filters, sort, fields, _q } = params;
  return { filters, sort, fields, _q };
}

/** Strapi's upload list takes `start`/`limit` at the top level, or `pagination`. */
function paginationOf(params: Record<string, unknown>): unknown {
  if (params.start !== undefined || params.limit !== undefined) return { start: params.start, limit: params.limit };
  return params.pagination;
}

/** `related` is not an attribute of the file type: read separately (see related.ts). */
function splitRelated(populate: unknown): { wantsRelated: boolean; populate: unknown } {
  if (populate === 'related' || populate === '*') return { wantsRelated: true, populate: undefined };
  if (Array.isArray(populate)) {
    const rest = populate.filter((item) => item !== 'related');
    return { wantsRelated: rest.length !== populate.length, populate: rest.length > 0 ? rest : undefined };
  }
  if (typeof populate === 'string' && populate.split(',').includes('related')) {
    const rest = populate.split(',').filter((item) => item !== 'related');
    return { wantsRelated: true, populate: rest.length > 0 ? rest.join(',') : undefined };
  }
  if (populate && typeof populate === 'object' && 'related' in populate) {
    const { related: _related, ...rest } = populate as Record<string, unknown>;
    return { wantsRelated: true, populate: Object.keys(rest).length > 0 ? rest : undefined };
  }
  return { wantsRelated: false, populate };
}

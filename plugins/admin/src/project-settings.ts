/**
 * `POST /admin/project-settings`: Settings → Overview's logos (the menu's and the sign-in page's), as Strapi 4.26.2
 * saves them (answers recorded on the peer): a multipart body whose `menuLogo`/`authLogo` files (JPEG, PNG or SVG,
 * at most 1 MiB and 750×750) are stored through the app's `media` file store (the upload plugin's provider: core's
 * files/unlisted-files.ts contract), with no row in the media library, and
 * described in the core store (`core_admin_project-settings`); a text value for a logo resets it. A replaced or
 * reset logo's bytes are removed. Unlike Strapi, the type checked is the one sniffed from the bytes, not the one the
 * client claims, and a body that is no multipart one changes the text values only (Strapi answered it 500).
 */
import type Koa from 'koa';
import { MEDIA_FILE_STORE, requestBody, requestFiles, type App, type ReceivedFile, type StoredUnlistedFile, type UnlistedFile, type UnlistedFileStore } from '@tessera/core';
import { ApplicationError, ValidationError, type ValidationIssue } from '@tessera/errors';
import { projectSettings } from './project-info';

const LOGOS = ['menuLogo', 'authLogo'] as const;
type LogoName = (typeof LOGOS)[number];
const ALLOWED_TYPES = ['image/jpeg', 'image/png', 'image/svg+xml'];
const MAX_BYTES = 1024 * 1024;
const MAX_SIDE = 750;
/** What the store keeps of a logo (Strapi's pick). */
const STORED_FIELDS = ['name', 'hash', 'url', 'width', 'height', 'ext', 'size', 'provider'];

type Stored = Record<string, unknown>;

export async function updateProjectSettings(app: App, ctx: Koa.Context) {
  const body = checkedBody(requestBody(ctx));
  const files = checkedFiles(requestFiles(ctx));
  const uploads = app.fileStores.find(MEDIA_FILE_STORE);
  if (Object.keys(files).length > 0 && !uploads) throw new ApplicationError('Saving logos needs the upload plugin');
  const described: Partial<Record<LogoName, UnlistedFile>> = {};
  for (const [name, file] of Object.entries(files) as Array<[LogoName, ReceivedFile]>) described[name] = await uploads!.describe(file);
  checkDescribed(described);

  const store = app.store({ type: 'core', name: 'admin' });
  const previous = ((await store.get({ key: 'project-settings' })) ?? null) as Record<LogoName, Stored | null> | null;
  const next: Partial<Record<LogoName, Stored | null>> = {};
  for (const name of LOGOS) {
    const file = files[name];
    if (file) next[name] = pick(await uploads!.store(described[name]!, file.filepath));
    else if (body[name] !== undefined) next[name] = null;
    // As Strapi: the previous logo stays; with none stored yet, an empty one ({}) is kept.
    else next[name] = previous ? previous[name] : {};
  }
  await store.set({ key: 'project-settings', value: { ...previous, ...next } });
  if (uploads) await removeReplaced(app, uploads, previous, next);
  return projectSettings(app);
}

function pick(logo: StoredUnlistedFile): Stored {
  const fields: Stored = { ...logo };
  return Object.fromEntries(STORED_FIELDS.filter((key) => key in fields).map((key) => [key, fields[key]]));
}

/** Strapi's `deleteOldFiles`: each replaced or reset logo's bytes, when the current provider stored them. */
async function removeReplaced(app: App, uploads: UnlistedFileStore, previous: Record<LogoName, Stored | null> | null, next: Partial<Record<LogoName, Stored | null>>): Promise<void> {
  for (const name of LOGOS) {
    const old = previous?.[name];
    if (!old || typeof old.hash !== 'string' || next[name]?.hash === old.hash) continue;
    await uploads.remove(old).catch((error: unknown) => app.log.warn(`admin: the old ${name} (${old.hash}) was not removed: ${(error as Error).message}`));
  }
}

/** Strapi's `updateProjectSettings` schema: text values for the logos only (a reset). */
function checkedBody(raw: unknown): Partial<Record<LogoName, string>> {
  const body = raw === undefined || raw === null ? {} : raw;
  if (typeof body !== 'object' || Array.isArray(body)) throw ValidationError.forField([], 'this must be a `object` type');
  const values = body as Record<string, unknown>;
  refuseUnknown(Object.keys(values));
  for (const name of LOGOS) {
    if (values[name] !== undefined && typeof values[name] !== 'string') throw ValidationError.forField([name], `${name} must be a \`string\` type`);
  }
  return values as Partial<Record<LogoName, string>>;
}

/** Strapi's `updateProjectSettingsFiles` schema: a file per logo at most, in the allowed types, at most 1 MiB. */
function checkedFiles(raw: Record<string, unknown> | undefined): Partial<Record<LogoName, ReceivedFile>> {
  const files = raw ?? {};
  refuseUnknown(Object.keys(files));
  const checked: Partial<Record<LogoName, ReceivedFile>> = {};
  for (const name of LOGOS) {
    const file = files[name];
    if (file === undefined) continue;
    if (Array.isArray(file)) throw ValidationError.forField([name], `${name} must be one file`);
    checked[name] = file as ReceivedFile;
    if (checked[name]!.size > MAX_BYTES) throw ValidationError.forField([name, 'size'], `${name}.size must be less than or equal to ${MAX_BYTES}`);
  }
  return checked;
}

/** The sniffed type, then the dimensions (`updateProjectSettingsImagesDimensions`), every problem in one 400. */
function checkDescribed(described: Partial<Record<LogoName, UnlistedFile>>): void {
  const issues: ValidationIssue[] = [];
  const issue = (path: string[], message: string) => issues.push({ path, message, name: 'ValidationError' });
  for (const [name, file] of Object.entries(described) as Array<[LogoName, UnlistedFile]>) {
    if (!ALLOWED_TYPES.includes(file.mime)) issue([name, 'type'], `${name}.type must be one of the following values: ${ALLOWED_TYPES.join(', ')}`);
    else if ((file.width ?? 0) > MAX_SIDE) issue([name, 'width'], `${name}.width must be less than or equal to ${MAX_SIDE}`);
    else if ((file.height ?? 0) > MAX_SIDE) issue([name, 'height'], `${name}.height must be less than or equal to ${MAX_SIDE}`);
  }
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
}

function refuseUnknown(keys: string[]): void {
  const unknown = keys.filter((key) => !(LOGOS as readonly string[]).includes(key));
  if (unknown.length > 0) throw ValidationError.forField([], `this field has unspecified keys: ${unknown.join(', ')}`);
}

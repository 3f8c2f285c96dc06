/**
 * The upload suites' app: `api::post.post` with a single media field
 * (`cover`) and a multiple one (`gallery`), the REST and upload plugins,
 * and helpers to send real multipart requests and make real images.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Plugin } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import { startApp, type TestApp, type TestDialect } from '@tessera/testing';
import uploadPlugin from '../src';

export const POST_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'posts',
  info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    secret: { type: 'string', private: true },
    cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
    gallery: { type: 'media', multiple: true },
  },
};

export interface UploadApp {
  app: TestApp;
  token: string;
  uploadsDir: string;
}

/**
 * `plugins`: more plugins beside rest and upload, `pluginsConfig` their entries of config/plugins (the GraphQL suite
 * adds graphql); `files`: more files of the app (an `src/index.js`, an extension).
 */
export async function startUploadApp(
  dialect: TestDialect,
  uploadConfig: Record<string, unknown> = {},
  plugins: Plugin[] = [],
  pluginsConfig: Record<string, unknown> = {},
  files: Record<string, string> = {},
): Promise<UploadApp> {
  const app = await startApp({
    dialect,
    files: {
      'src/api/post/content-types/post/schema.json': POST_SCHEMA,
      'config/permissions.ts': `export default { public: ['api::post.post.find', 'api::post.post.findOne'] };`,
      ...files,
    },
    plugins: [restPlugin, uploadPlugin, ...plugins],
    config: { plugins: { ...pluginsConfig, upload: { enabled: true, config: uploadConfig } } },
  });
  return { app, token: await app.fullAccessToken(), uploadsDir: path.join(app.dir, 'public', 'uploads') };
}

export interface Part {
  name: string;
  value: string | { content: Buffer | string; filename: string; type?: string };
}

/** A real multipart/form-data request (fetch builds the body). */
export async function multipart(app: TestApp, pathAndQuery: string, parts: Part[], token?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === 'string') form.append(part.name, part.value);
    else form.append(part.name, new Blob([part.value.content], { type: part.value.type ?? 'application/octet-stream' }), part.value.filename);
  }
  const response = await fetch(`${app.url}${pathAndQuery}`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export function file(content: Buffer | string, filename: string, type?: string): Part {
  return { name: 'files', value: { content, filename, type } };
}

/** A PNG of the given size with a gradient (so it does not compress to nothing). */
export async function png(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = ((x + y) * 7) % 256;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export function storedFiles(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

export const FILE_KEYS = [
  'id', 'name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url',
  'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt',
];

/**
 * Points os.tmpdir() (TMPDIR) at a folder of the suite's own while it runs, and lists the upload temp folders
 * (`tessera-upload-*`) made there: another test process uploading at the same time never shows up in the count.
 * Call it after the suite's `after(app.stop)`, so the folder is removed once the app is stopped.
 */
export function ownTempDir(): { uploadDirs(): Set<string> } {
  let dir = '';
  let previous: string | undefined;
  before(() => {
    previous = process.env.TMPDIR;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-suite-'));
    process.env.TMPDIR = dir;
  });
  after(() => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { uploadDirs: () => new Set(fs.readdirSync(dir).filter((name) => name.startsWith('tessera-upload-'))) };
}

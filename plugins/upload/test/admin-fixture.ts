/**
 * The media library suites' app: a Strapi app's package.json (`@strapi/admin`,
 * `@strapi/strapi` and `@strapi/plugin-i18n` turn the admin, upload and i18n
 * plugins on, as on Strapi), the peer's `article`-free model (a localized page
 * and its category), the first admin registered as Strapi registers it, and the
 * replay of recorded exchanges: requests sent as recorded, answers normalised
 * as the recordings are (timestamps, hashes' random part).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SHARED_REFERENCE, startApp, type TestApp, type TestDialect } from '@tessera/testing';

export const PAGE_SCHEMA = JSON.parse(fs.readFileSync(path.join(SHARED_REFERENCE, 'strapi4-fixture-i18n/src/api/page/content-types/page/schema.json'), 'utf8'));

const CATEGORY_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'categories',
  info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};

/** The peer's bootstrap gave it fr and de after en: the same ids here. */
const LOCALES_BOOTSTRAP = `
module.exports = {
  async bootstrap({ strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    if (!(await locales.findByCode('fr'))) await locales.create({ code: 'fr', name: 'French (fr)' });
    if (!(await locales.findByCode('de'))) await locales.create({ code: 'de', name: 'German (de)' });
  },
};
`;

export const MEDIA_APP_FILES = {
  'package.json': { name: 'media-test-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2', '@strapi/strapi': '4.26.2', '@strapi/plugin-i18n': '4.26.2' } },
  'src/api/page/content-types/page/schema.json': PAGE_SCHEMA,
  'src/api/category/content-types/category/schema.json': CATEGORY_SCHEMA,
  'src/index.js': LOCALES_BOOTSTRAP,
};

export interface Exchange {
  title: string;
  method: string;
  path: string;
  auth?: 'none' | 'api';
  body?: unknown;
  form?: { files: Array<{ image: string; name: string }>; fileInfo?: string[] };
  status: number;
  answer: unknown;
}

export interface Recording {
  admin: { email: string; password: string; firstname: string; lastname: string };
  exchanges: Exchange[];
}

export interface MediaApp {
  app: TestApp;
  /** The first admin's JWT. */
  token: string;
  apiToken: string;
}

export async function startMediaApp(dialect: TestDialect, admin: Recording['admin']): Promise<MediaApp> {
  const app = await startApp({ dialect, files: MEDIA_APP_FILES, config: { admin: { auth: { secret: 'media-test-secret' } } } });
  const registered = await app.post('/admin/register-admin', admin);
  if (registered.status !== 200) throw new Error(`register-admin answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  return { app, token: registered.body.data.token, apiToken: await app.fullAccessToken() };
}

/** The recordings' images (made with this repository's sharp, as they were sent to the peer). */
export async function recordedImages(): Promise<Record<string, Buffer>> {
  const image = async (width: number, height: number, seed: number) => {
    const { default: sharp } = await import('sharp');
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const offset = (y * width + x) * 3;
        pixels[offset] = (x * 255) / width;
        pixels[offset + 1] = (y * 255) / height;
        pixels[offset + 2] = ((x + y + seed) * 7) % 256;
      }
    }
    return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
  };
  return { a: await image(40, 30, 1), b: await image(30, 40, 2), c: await image(30, 30, 3) };
}

/** Sends one recorded request (JSON, or the recorded multipart form), with the admin's token unless recorded otherwise. */
export async function send(media: MediaApp, exchange: Exchange, images: Record<string, Buffer>): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  if (exchange.auth === undefined) headers.authorization = `Bearer ${media.token}`;
  if (exchange.auth === 'api') headers.authorization = `Bearer ${media.apiToken}`;
  let body: FormData | string | undefined;
  if (exchange.form) {
    const form = new FormData();
    for (const file of exchange.form.files) form.append('files', new Blob([images[file.image]], { type: 'image/png' }), file.name);
    for (const info of exchange.form.fileInfo ?? []) form.append('fileInfo', info);
    body = form;
  } else if (exchange.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(exchange.body);
  }
  const response = await fetch(`${media.app.url}${exchange.path}`, { method: exchange.method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** What the recordings hold instead of times and random hash parts. */
export function normalise(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, normalise(item, name)]));
  if (typeof value === 'string' && ISO_TIME.test(value)) return '<time>';
  if (key === 'hash' && typeof value === 'string') return value.replace(/_[0-9a-f]{10}$/, '_<hash>');
  if (key === 'url' && typeof value === 'string') return value.replace(/_[0-9a-f]{10}(\.\w+)$/, '_<hash>$1');
  return value;
}

/**
 * Test apps for the i18n plugin: the localized `page` of Strapi's i18n
 * reference fixture (title, slug, body localized; order shared; a category
 * relation), the category it relates to, and locales fr and de created by a
 * Strapi v4 style bootstrap through `strapi.plugin('i18n').service('locales')`.
 */
import fs from 'node:fs';
import path from 'node:path';
import restPlugin from '@tessera/plugin-rest';
import { SHARED_REFERENCE, startApp, type TestApp, type TestDialect } from '@tessera/testing';
import i18nPlugin from '../src';

export const PAGE_SCHEMA = JSON.parse(
  fs.readFileSync(path.join(SHARED_REFERENCE, 'strapi4-fixture-i18n/src/api/page/content-types/page/schema.json'), 'utf8'),
);

export const CATEGORY_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'categories',
  info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string', required: true, unique: true } },
};

/** Written as Strapi v4 app code: plain JavaScript against the `strapi` object. */
export const LOCALES_BOOTSTRAP = `
module.exports = {
  async bootstrap({ strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    if (!(await locales.findByCode('fr'))) await locales.create({ code: 'fr', name: 'French (fr)' });
    if (!(await locales.findByCode('de'))) await locales.create({ code: 'de', name: 'German (de)' });
  },
};
`;

/** A localized single type: `title` localized, `theme` shared. */
export const HOMEPAGE_SCHEMA = {
  kind: 'singleType',
  collectionName: 'homepages',
  info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
  options: { draftAndPublish: false },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
    theme: { type: 'string', pluginOptions: { i18n: { localized: false } } },
  },
};

export const PUBLIC = [
  'api::page.page.find',
  'api::page.page.findOne',
  'api::category.category.find',
  'api::category.category.findOne',
];

export interface I18nAppOptions {
  files?: Record<string, string | object>;
  bootstrap?: string | null;
}

export async function startI18nApp(dialect: TestDialect, options: I18nAppOptions = {}): Promise<{ app: TestApp; token: string }> {
  const files: Record<string, string | object> = {
    'src/api/page/content-types/page/schema.json': PAGE_SCHEMA,
    'src/api/category/content-types/category/schema.json': CATEGORY_SCHEMA,
    'config/permissions.ts': `export default { public: ${JSON.stringify(PUBLIC)} };`,
    ...options.files,
  };
  if (options.bootstrap !== null) files['src/index.js'] = options.bootstrap ?? LOCALES_BOOTSTRAP;
  const app = await startApp({ dialect, files, plugins: [restPlugin, i18nPlugin] });
  return { app, token: await app.fullAccessToken() };
}

/** The envelope of a 4xx, exactly. */
export function errorBody(status: number, name: string, message: string, details: object = {}) {
  return { data: null, error: { status, name, message, details } };
}

/**
 * The i18n plugin in Strapi v4's server format: locales (`plugin::i18n.locale`
 * in `i18n_locale`, `GET /api/i18n/locales`), localized content types
 * (`pluginOptions.i18n.localized: true` adds `locale` and `localizations`),
 * the `locale` query parameter, and `POST /api/<plural>/:id/localizations`;
 * with the GraphQL plugin on, their GraphQL parts (graphql.ts). Every
 * entity-service write of a localized type follows the plugin's write rule
 * (localized-writes.ts); only the localizations service links entries.
 *
 * Services (reachable as `strapi.plugin('i18n')!.service(name)`, for app code
 * and other plugins such as GraphQL): `locales`, `iso-locales`,
 * `localizations`, `content-types`.
 */
import type Koa from 'koa';
import { Caller, requestBody, type App, type AuthState, type LifecycleEvent, type Plugin, type RouterDefinition, type Subscriber } from '@tessera/core';
import type { ContentType } from '@tessera/database';
import { adminContentTypesController, adminIsoLocalesController, adminLocalesController } from './admin/controllers';
import { adminRoutes } from './admin/routes';
import { localeSchema } from './locale-schema';
import { localesService, type LocalesService } from './locales';
import { isoLocalesService } from './iso-locales';
import { localizationsService } from './localizations';
import { isRecord } from './localization-groups';
import { localeParameter } from './locale-parameter';
import { registerGraphql } from './graphql';
import { localizedWrites } from './localized-writes';
import { addLocaleAttributes, isLocalizedAttribute, LOCALE_ATTRIBUTE, isLocalizedContentType, sharedAttributes } from './localized-types';

/** This plugin's own services, typed by its contract (contract.ts). */
const i18n = (app: App) => app.plugin('i18n')!;

const localizedTypes = (app: App): ContentType[] => app.contentTypes.values().filter(isLocalizedContentType);

/**
 * `POST /api/<plural>/:id/localizations` for a localized collection type,
 * `POST /api/<singular>/localizations` for a single type (the way Strapi v4
 * adds a locale to one: its PUT ?locale=… refuses); the permission is the
 * action `<uid>.createLocalization` (Strapi v4's).
 */
function localizationRouter(contentType: ContentType): RouterDefinition {
  const uid = contentType.uid;
  return {
    type: 'content-api',
    prefix: '',
    routes: ({ app }) => [
      {
        method: 'POST',
        path: contentType.kind === 'singleType' ? `/${contentType.info.singularName}/localizations` : `/${contentType.info.pluralName}/:id/localizations`,
        handler: async (ctx: Koa.Context) => {
          const body = requestBody(ctx);
          ctx.body = await i18n(app).service('localizations').createLocalization(uid, ctx.params.id, body, Caller.of(ctx.state.auth as AuthState));
        },
        config: { auth: { scope: [`${uid}.createLocalization`] } },
      },
    ],
  };
}

/**
 * Entries without a locale are those written before their type became
 * localized: they get the default locale, as Strapi v4 does after its schema
 * sync. One UPDATE per localized type at boot, after the additive sync (which
 * added the column); the next boot finds nothing to do.
 */
async function giveDefaultLocale(app: App, types: ContentType[], locale: string): Promise<void> {
  for (const contentType of types) {
    const count = await app.db.fillNull(contentType.uid, LOCALE_ATTRIBUTE, locale);
    if (count > 0) app.log.info(`i18n: ${count} existing ${contentType.uid} ${count === 1 ? 'entry' : 'entries'} got the default locale "${locale}"`);
  }
}

/**
 * Server code writing through the query engine (`strapi.db.query(uid).create`)
 * bypasses the entity service and its write rules; as in Strapi v4, such a
 * create still gets the default locale when it names none, so the entry is
 * not invisible to every read. (The query engine applies no other i18n rule,
 * as in Strapi.)
 */
function defaultLocaleOnQueryEngineCreates(types: ContentType[], locales: LocalesService): Subscriber {
  return {
    models: types.map((contentType) => contentType.uid),
    beforeCreate(event: LifecycleEvent) {
      const data = (event.params as { data?: unknown }).data;
      if (isRecord(data) && (data[LOCALE_ATTRIBUTE] === undefined || data[LOCALE_ATTRIBUTE] === null)) data[LOCALE_ATTRIBUTE] = locales.getDefaultLocale();
    },
  };
}

export const i18nPlugin: Plugin = {
  name: 'i18n',
  // After graphql, when it is on: register contributes to its schema.
  optionalDependencies: ['rest', 'graphql', 'admin'],
  contentTypes: { locale: { schema: localeSchema } },
  services: {
    locales: localesService,
    'iso-locales': isoLocalesService,
    localizations: localizationsService,
    'content-types': () => ({ isLocalizedContentType, isLocalizedAttribute, getSharedAttributes: sharedAttributes }),
  },
  controllers: {
    // The content API's `locales.listLocales` is the admin's too (Strapi's one controller for both).
    locales: adminLocalesController,
    'iso-locales': adminIsoLocalesController,
    'content-types': adminContentTypesController,
  },
  routes: {
    // Served with Strapi's admin, as the panel's Settings → Internationalization page (none in an API-only app).
    admin: { type: 'admin', routes: adminRoutes },
    'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/locales', handler: 'locales.listLocales' }] },
  },

  register({ app }) {
    for (const contentType of localizedTypes(app)) {
      addLocaleAttributes(contentType);
      app.routes.add(`plugin::i18n.localizations-${contentType.uid}`, localizationRouter(contentType));
    }
    const locales = () => i18n(app).service('locales');
    app.queryParameters.add('locale', localeParameter(app, locales));
    const localized = new Set(localizedTypes(app).map((contentType) => contentType.uid));
    app.writeRules.add('i18n', localizedWrites(app, i18n(app).service('localizations').groups, locales, localized));
    registerGraphql(app, localizedTypes(app));
  },

  async bootstrap({ app }) {
    const locales = i18n(app).service('locales');
    await locales.initDefaultLocale();
    const types = localizedTypes(app);
    await giveDefaultLocale(app, types, locales.getDefaultLocale());
    if (types.length > 0) app.db.lifecycles.subscribe(defaultLocaleOnQueryEngineCreates(types, locales));
  },
};

export default i18nPlugin;
export { isLocalizedContentType, isLocalizedAttribute } from './localized-types';
export type { LocalesService, Locale } from './locales';
export type { LocalizationsService } from './localizations';
export type { IsoLocale, IsoLocalesService } from './iso-locales';
export type { I18nServices, I18nContentTypesService } from './contract';

/**
 * The i18n plugin in Strapi v4's server format: locales (`plugin::i18n.locale`
 * in `i18n_locale`, `GET /api/i18n/locales`), localized content types
 * (`pluginOptions.i18n.localized: true` adds `locale` and `localizations`),
 * the `locale` query parameter, and `POST /api/<plural>/:id/localizations`;
 * with the GraphQL plugin on, their GraphQL parts (graphql.ts).
 *
 * Services (reachable as `strapi.plugin('i18n')!.service(name)`, for app code
 * and other plugins such as GraphQL): `locales`, `iso-locales`,
 * `localizations`, `content-types`.
 */
import type Koa from 'koa';
import type { App, AuthState, KernelContext, Plugin, RouterDefinition } from '@tessera/core';
import type { ContentType } from '@tessera/database';
import { localeSchema } from './locale-schema';
import { localesService, type LocalesService } from './locales';
import { isoLocalesService } from './iso-locales';
import { localizationsService, type LocalizationsService } from './localizations';
import { localeParameter } from './locale-parameter';
import { registerGraphql } from './graphql';
import { addLocaleAttributes, isLocalizedAttribute, isLocalizedContentType, sharedAttributes } from './localized-types';

const service = <T>(app: App, name: string) => app.plugin('i18n')!.service(name) as unknown as T;

const localizedTypes = (app: App): ContentType[] => app.contentTypes.values().filter(isLocalizedContentType);

/**
 * `POST /api/<plural>/:id/localizations` for a localized collection type; its
 * permission is the action `<uid>.createLocalization` (Strapi v4's).
 * (A single type gets a locale's entry with `PUT /api/<singular>?locale=…`.)
 */
function localizationRouter(contentType: ContentType): RouterDefinition {
  const uid = contentType.uid;
  return {
    type: 'content-api',
    prefix: '',
    routes: ({ app }) => [
      {
        method: 'POST',
        path: `/${contentType.info.pluralName}/:id/localizations`,
        handler: async (ctx: Koa.Context) => {
          const body = (ctx.request as unknown as { body?: unknown }).body;
          ctx.body = await service<LocalizationsService>(app, 'localizations').createLocalization(uid, ctx.params.id, body, ctx.state.auth as AuthState);
        },
        config: { auth: { scope: [`${uid}.createLocalization`] } },
      },
    ],
  };
}

export const i18nPlugin: Plugin = {
  name: 'i18n',
  // After graphql, when it is on: register contributes to its schema.
  optionalDependencies: ['rest', 'graphql'],
  contentTypes: { locale: { schema: localeSchema } },
  services: {
    locales: localesService,
    'iso-locales': isoLocalesService,
    localizations: localizationsService,
    'content-types': () => ({ isLocalizedContentType, isLocalizedAttribute, getSharedAttributes: sharedAttributes }),
  },
  controllers: {
    locales: ({ app }: KernelContext) => ({
      async listLocales(ctx: Koa.Context) {
        const locales = service<LocalesService>(app, 'locales');
        ctx.body = locales.setIsDefault(await locales.find());
      },
    }),
  },
  routes: {
    'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/locales', handler: 'locales.listLocales' }] },
  },

  register({ app }) {
    for (const contentType of localizedTypes(app)) {
      addLocaleAttributes(contentType);
      if (contentType.kind === 'collectionType') app.routes.add(`plugin::i18n.localizations-${contentType.uid}`, localizationRouter(contentType));
    }
    app.queryParameters.add('locale', localeParameter(app, () => service<LocalesService>(app, 'locales')));
    registerGraphql(app, localizedTypes(app));
  },

  async bootstrap({ app }) {
    await service<LocalesService>(app, 'locales').initDefaultLocale();
    const types = localizedTypes(app);
    if (types.length > 0) app.db.lifecycles.subscribe(service<LocalizationsService>(app, 'localizations').lifecycles(types));
  },
};

export default i18nPlugin;
export { isLocalizedContentType, isLocalizedAttribute } from './localized-types';
export type { LocalesService, Locale } from './locales';
export type { LocalizationsService } from './localizations';
export type { IsoLocale, IsoLocalesService } from './iso-locales';

/** Names shared by the plugin's modules. */
export const PLUGIN = 'i18n';
export const LOCALE_UID = 'plugin::i18n.locale';
/** What a fresh database gets, as Strapi v4 does. */
export const DEFAULT_LOCALE = { code: 'en', name: 'English (en)' };
/** `locale=all` reads every locale. */
export const ALL_LOCALES = 'all';

/** The GraphQL scalar of a locale code argument (Strapi v4's name). */
export const LOCALE_CODE_TYPE = 'I18NLocaleCode';

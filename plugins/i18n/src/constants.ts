/** Names shared by the plugin's modules. */
export const PLUGIN = 'i18n';
export const LOCALE_UID = 'plugin::i18n.locale';
/** What a fresh database gets, as Strapi v4 does. */
export const DEFAULT_LOCALE = { code: 'en', name: 'English (en)' };
/** `locale=all` reads every locale. */
export const ALL_LOCALES = 'all';

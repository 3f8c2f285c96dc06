/**
 * `plugin::i18n.locale` in Strapi v4's table `i18n_locale` (`name`, `code`).
 * Which locale is the default is not a column: Strapi keeps it in its core
 * store (`strapi.store`, the kernel's).
 */
export const localeSchema = {
  kind: 'collectionType',
  collectionName: 'i18n_locale',
  info: { singularName: 'locale', pluralName: 'locales', collectionName: 'locales', displayName: 'Locale', description: '' },
  options: { draftAndPublish: false },
  pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
  attributes: {
    name: { type: 'string', minLength: 1, maxLength: 50, configurable: false },
    code: { type: 'string', unique: true, configurable: false },
  },
};

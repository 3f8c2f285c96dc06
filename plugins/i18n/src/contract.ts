/**
 * What the i18n plugin offers other plugins and apps: its services' types,
 * in the kernel's typed service map (`app.plugin('i18n')!.service('locales')`).
 */
import type { IsoLocalesService } from './iso-locales';
import type { LocalesService } from './locales';
import type { LocalizationsService } from './localizations';
import type { isLocalizedAttribute, isLocalizedContentType, sharedAttributes } from './localized-types';

/** `service('content-types')`: Strapi v4's helpers on localized types. */
export interface I18nContentTypesService {
  isLocalizedContentType: typeof isLocalizedContentType;
  isLocalizedAttribute: typeof isLocalizedAttribute;
  getSharedAttributes: typeof sharedAttributes;
}

export interface I18nServices {
  locales: LocalesService;
  'iso-locales': IsoLocalesService;
  localizations: LocalizationsService;
  'content-types': I18nContentTypesService;
}

declare module '@tessera/core' {
  interface PluginServices {
    i18n: I18nServices;
  }
}

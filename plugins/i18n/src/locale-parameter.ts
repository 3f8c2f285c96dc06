/**
 * The `locale` query parameter of the content API, on localized types:
 * absent → the default locale, `all` → every locale, a code → that locale
 * (a code no locale has selects nothing). An entry asked for by id answers
 * whatever its locale. The filter becomes part of the read plan, and the
 * default comes from memory: no query per request. Typed transports take it
 * as the `locale: I18NLocaleCode` argument of the localized types' operations
 * (graphql.ts provides the type).
 */
import type { App, QueryParameter, QueryParameterContext } from '@tessera/core';
import { ValidationError } from '@tessera/errors';
import { ALL_LOCALES, LOCALE_CODE_TYPE } from './constants';
import { isLocalizedContentType, LOCALE_ATTRIBUTE } from './localized-types';
import type { LocalesService } from './locales';

export function localeParameter(app: App, locales: () => LocalesService): QueryParameter {
  const localized = new Set(app.contentTypes.values().filter(isLocalizedContentType).map((contentType) => contentType.uid));
  const requested = (value: unknown): string | undefined => {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new ValidationError('Invalid parameter locale');
    return value;
  };
  return {
    name: 'locale',
    filters(value: unknown, { uid, operation }: QueryParameterContext) {
      if (!localized.has(uid)) return undefined;
      const code = requested(value);
      if (operation === 'entry' || code === ALL_LOCALES) return undefined;
      return { [LOCALE_ATTRIBUTE]: { $eq: code ?? locales().getDefaultLocale() } };
    },
    data(value: unknown, { uid }: QueryParameterContext) {
      if (!localized.has(uid)) return undefined;
      const code = requested(value);
      return code === undefined || code === ALL_LOCALES ? undefined : { [LOCALE_ATTRIBUTE]: code };
    },
    argument: {
      type: LOCALE_CODE_TYPE,
      actions: ['find', 'findOne', 'create', 'update', 'delete'],
      appliesTo: (uid) => localized.has(uid),
    },
  };
}

/**
 * The locale codes a locale may have, with English names ("French (Canada)
 * (fr-CA)"): Strapi 4.26.2's list, as its `GET /i18n/iso-locales` answers it
 * (recorded on the peer into iso-locale-list.json, names verbatim — a few end
 * with a space or lack the code, as Strapi's do), so the panel offers and
 * accepts the same codes on both.
 */
import list from './iso-locale-list.json';

export interface IsoLocale {
  code: string;
  name: string;
}

const ISO_LOCALES: readonly IsoLocale[] = list;
const BY_CODE = new Map(ISO_LOCALES.map((locale) => [locale.code, locale]));

/** The `iso-locales` service, under Strapi v4's method name. */
export const isoLocalesService = () => ({
  getIsoLocales: (): readonly IsoLocale[] => ISO_LOCALES,
  /** The ISO entry for a code, or undefined when the code is not in the list. */
  findIsoLocale: (code: unknown): IsoLocale | undefined => (typeof code === 'string' ? BY_CODE.get(code) : undefined),
});

export type IsoLocalesService = ReturnType<typeof isoLocalesService>;

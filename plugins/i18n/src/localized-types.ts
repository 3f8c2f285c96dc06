/**
 * Which content types and attributes are localized. A type is localized with
 * `pluginOptions.i18n.localized: true`; its attributes are localized unless
 * they say `pluginOptions.i18n.localized: false` (a shared field: the same
 * value in every localization of an entry). Relations and uids are always
 * localized: relations are never copied between locales, and a uid is unique
 * across all of them.
 */
import type { Attribute, ContentType } from '@tessera/database';

/** Attributes the plugin itself adds to a localized type. */
export const LOCALE_ATTRIBUTE = 'locale';
export const LOCALIZATIONS_ATTRIBUTE = 'localizations';

interface WithPluginOptions {
  pluginOptions?: Record<string, unknown>;
}

function localizedOption(item: WithPluginOptions | undefined): unknown {
  const i18n = item?.pluginOptions?.i18n as { localized?: unknown } | undefined;
  return i18n?.localized;
}

export function isLocalizedContentType(contentType: ContentType | undefined): boolean {
  return localizedOption(contentType) === true;
}

export function isLocalizedAttribute(attribute: Attribute): boolean {
  if (attribute.type === 'relation' || attribute.type === 'uid') return true;
  return localizedOption(attribute) !== false;
}

/** The shared attributes of a localized type, by kind of storage. */
export interface SharedAttributes {
  /** Stored in the type's own table. */
  columns: string[];
  /** Media, components and dynamic zones. */
  links: string[];
}

export function sharedAttributes(contentType: ContentType): SharedAttributes {
  const shared: SharedAttributes = { columns: [], links: [] };
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    if (name === LOCALE_ATTRIBUTE || name === LOCALIZATIONS_ATTRIBUTE || isLocalizedAttribute(attribute)) continue;
    if (attribute.type === 'media' || attribute.type === 'component' || attribute.type === 'dynamiczone') shared.links.push(name);
    else shared.columns.push(name);
  }
  return shared;
}

/**
 * Adds `localizations` (every other locale's entry of the same content, a
 * one-to-many to the type itself: `<table>_localizations_links` with
 * `<singular>_id`, `inv_<singular>_id` and `<singular>_order`, as Strapi v4
 * names it) and `locale` to a localized type, as Strapi v4's plugin does
 * during register. Added after loading, they come after the timestamps in
 * responses.
 */
export function addLocaleAttributes(contentType: ContentType): void {
  const internal = { configurable: false, visible: false, writable: true, private: false };
  contentType.attributes[LOCALIZATIONS_ATTRIBUTE] = { ...internal, type: 'relation', relation: 'oneToMany', target: contentType.uid };
  contentType.attributes[LOCALE_ATTRIBUTE] = { ...internal, type: 'string' };
  // Every read of the type filters on it.
  contentType.indexes = [...(contentType.indexes ?? []), { attributes: [LOCALE_ATTRIBUTE] }];
}

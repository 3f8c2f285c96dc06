/**
 * The locale an entry is created in, for a localized type (the i18n plugin's `locale` attribute): the request's
 * `?locale=` (Strapi's i18n content-manager middleware), else the default locale; an unknown one is Strapi's 400.
 * It must be one the admin may create in (`properties.locales` of its create permission): Strapi 4.26.2 creates an
 * empty entry there instead, Tessera refuses (403). Linking a new entry to another locale's (`relatedEntityId`)
 * is the i18n part's (the localizations service).
 */
import type { App } from '@tessera/core';
import type { EntityMetadata } from '@tessera/database';
import { ApplicationError, ForbiddenError } from '@tessera/errors';
import type {} from '@tessera/plugin-i18n';
import type { ModelAccess } from './access';

export function isLocalized(entity: EntityMetadata): boolean {
  return entity.columns.has('locale') && entity.links.has('localizations');
}

/** The locale a create writes (undefined for a type without locales); throws Strapi's refusals. */
export async function creationLocale(app: App, entity: EntityMetadata, query: Record<string, unknown>, access: ModelAccess): Promise<string | undefined> {
  const locales = app.plugin('i18n')?.service('locales');
  if (!isLocalized(entity) || !locales) return undefined;
  const asked = query.locale;
  const code = typeof asked === 'string' && asked !== '' ? asked : locales.getDefaultLocale();
  if (!(await locales.findByCode(code))) throw new ApplicationError("This locale doesn't exist");
  const permitted = access.locales('create');
  if (permitted !== null && !permitted.includes(code)) throw new ForbiddenError();
  return code;
}

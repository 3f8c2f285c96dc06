/**
 * The locale an entry is created in, for a localized type (the i18n plugin's `locale` attribute): the request's
 * `?locale=` (Strapi's i18n content-manager middleware), else the default locale; an unknown one is Strapi's 400.
 * It must be one the admin may create in (`properties.locales` of its create permission): Strapi 4.26.2 creates an
 * empty entry there instead, Tessera refuses (403). A create naming `relatedEntityId` (the panel's locale picker on
 * an entry: a new version of it in another locale) joins that entry's group through i18n's localizations service,
 * which keeps groups.
 */
import type { App } from '@tessera/core';
import type { Entity } from '@tessera/database';
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

/**
 * Creates the entry in `locale` (`create` writes it and answers it): alone, or, when the request names
 * `relatedEntityId`, as a new version of that entry — the group's shared values filled in where the body has none,
 * linked to the group (i18n's `joinGroup`: Strapi's 400 when there is no such entry or the group has the locale;
 * 403 when the body changes a shared value and the admin may not update every version).
 * Answers the new entry's id.
 */
export async function createInLocale(app: App, entity: EntityMetadata, access: ModelAccess, data: Record<string, unknown>, locale: string, query: Record<string, unknown>, create: (data: Record<string, unknown>) => Promise<Entity>): Promise<number> {
  const related = query.relatedEntityId;
  const localizations = app.plugin('i18n')?.service('localizations');
  if (related === undefined || related === '' || !localizations) return (await create({ ...data, locale })).id;
  return localizations.joinGroup(entity.uid, related, locale, data, async (values) => (await create(values)).id, (group) => mayUpdateAll(app, entity, access, group));
}

/**
 * May the admin update every version of a group (the update action, each version's locale, its conditions)? Asked
 * only when a new version's body changes a shared value, which i18n then writes on every version (Strapi 4.26.2
 * asks nothing: an Author could rewrite others' entries so). One count.
 */
async function mayUpdateAll(app: App, entity: EntityMetadata, access: ModelAccess, group: Array<{ id: number; locale: unknown }>): Promise<boolean> {
  const locales = access.locales('update');
  if (!access.can('update') || (locales !== null && group.some((member) => !locales.includes(String(member.locale))))) return false;
  const where = access.where('update');
  if (where === undefined) return true;
  const ids = group.map((member) => member.id);
  return (await app.entityService.count(entity.uid, { filters: { $and: [{ id: { $in: ids } }, where] }, locale: 'all' })) === ids.length;
}

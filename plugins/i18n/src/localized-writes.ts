/**
 * What every write of a localized type keeps true, declared to the kernel as
 * a write rule (the entity service runs it inside each write's transaction,
 * for the content API and server code alike):
 *   - a create is one new entry in one locale: the default locale unless it
 *     names a known one, and never a member of someone else's group — the
 *     `localizations` it sends are ignored, as on update (only the
 *     localization operations in localizations.ts link entries);
 *   - a single type's entries are one content: a create in a new locale joins
 *     the others and takes their shared values where its data sets none; a
 *     locale the type already has is refused;
 *   - an entry's locale and group never change through an update, and a
 *     shared field written on one localization is written on all of them.
 */
import type { App, WriteData, WriteRule } from '@tessera/core';
import { ApplicationError } from '@tessera/errors';
import { LOCALE_ATTRIBUTE, LOCALIZATIONS_ATTRIBUTE } from './localized-types';
import type { LocalizationGroups } from './localization-groups';
import type { LocalesService } from './locales';

export function localizedWrites(app: App, groups: LocalizationGroups, locales: () => LocalesService, localized: ReadonlySet<string>): WriteRule {
  const isSingleType = (uid: string) => app.contentTypes.get(uid).kind === 'singleType';

  /** The locale a create is in: the one it names, which must exist, or the default one. */
  async function localeOf(data: WriteData): Promise<string> {
    const locale = data[LOCALE_ATTRIBUTE];
    if (locale === undefined || locale === null) return locales().getDefaultLocale();
    if (!(await locales().findByCode(locale))) throw new ApplicationError("This locale doesn't exist");
    return locale as string;
  }

  /** A single type's new entry: linked with the others, with their shared values where `data` sets none. */
  async function joinSingleType(uid: string, data: WriteData): Promise<WriteData> {
    // Creates of one single type take turns, whoever writes (the content API's PUT also holds its own lock).
    await app.db.lock([`i18n:localizations:${uid}`]);
    const others = await groups.singleTypeEntries(uid);
    if (others.length === 0) return data;
    if (others.some((entry) => entry.locale === data[LOCALE_ATTRIBUTE])) throw new ApplicationError('locale is already used');
    const shared = await groups.sharedValues(uid, others[0].id);
    const defaults = Object.fromEntries(Object.entries(shared).filter(([name]) => data[name] === undefined));
    return { ...data, ...defaults, [LOCALIZATIONS_ATTRIBUTE]: others.map((entry) => entry.id) };
  }

  return {
    appliesTo: (uid) => localized.has(uid),

    async prepareCreate(uid, data) {
      const { [LOCALIZATIONS_ATTRIBUTE]: _ignored, ...fields } = data;
      const values = { ...fields, [LOCALE_ATTRIBUTE]: await localeOf(fields) };
      return isSingleType(uid) ? joinSingleType(uid, values) : values;
    },

    /** The single type's other entries link back to the new one, and take its shared values. */
    async afterCreate(uid, id) {
      if (!isSingleType(uid)) return;
      const others = (await groups.singleTypeEntries(uid)).map((entry) => entry.id).filter((other) => other !== id);
      if (others.length === 0) return;
      await groups.link(uid, [id, ...others]);
      await groups.spreadShared(uid, id, others);
    },

    prepareUpdate(_uid, _id, data) {
      const { [LOCALE_ATTRIBUTE]: _locale, [LOCALIZATIONS_ATTRIBUTE]: _localizations, ...fields } = data;
      return fields;
    },

    async afterUpdate(uid, id, data) {
      if (!groups.writesShared(uid, data)) return;
      const group = await groups.groupOf(uid, id);
      if (group) await groups.spreadShared(uid, id, group.slice(1).map((member) => member.id));
    },
  };
}

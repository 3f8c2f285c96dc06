/**
 * The `locales` service, with Strapi v4's method names, so a Strapi v4
 * bootstrap that creates locales runs unchanged. Locales live in
 * `i18n_locale`; the default one in the core store. The default locale and
 * the set of codes are cached in memory (every read of a localized type
 * needs the default) and refreshed by every change made through this service.
 */
import type { App } from '@tessera/core';
import { ApplicationError, ValidationError } from '@tessera/errors';
import { DEFAULT_LOCALE, LOCALE_UID } from './constants';
import { isoLocalesService } from './iso-locales';
import { isLocalizedContentType, LOCALE_ATTRIBUTE } from './localized-types';

/** The admin a change is made by (Strapi's `setCreatorFields`). */
export interface Editor {
  id: number;
}

export interface Locale {
  id: number;
  name: string | null;
  code: string;
  createdAt?: unknown;
  updatedAt?: unknown;
  isDefault?: boolean;
}

/** Strapi's row: `plugin_i18n_default_locale` in `strapi_core_store_settings`, through the kernel's `strapi.store`. */
const DEFAULT_LOCALE_KEY = 'default_locale';
/** What a locale reads as: its public columns (the authorship columns stay out). */
const LOCALE_FIELDS = ['id', 'name', 'code', 'createdAt', 'updatedAt'];

export function localesService({ strapi }: { strapi: App }) {
  const iso = isoLocalesService();
  const query = () => strapi.db.query(LOCALE_UID);
  const store = () => strapi.store({ type: 'plugin', name: 'i18n' });
  let defaultCode: string = DEFAULT_LOCALE.code;

  const service = {
    find(params: Record<string, unknown> = {}): Promise<Locale[]> {
      return query().findMany({ where: params, select: LOCALE_FIELDS, orderBy: { id: 'asc' } }) as unknown as Promise<Locale[]>;
    },

    findById(id: unknown): Promise<Locale | null> {
      return query().findOne({ where: { id }, select: LOCALE_FIELDS }) as unknown as Promise<Locale | null>;
    },

    findByCode(code: unknown): Promise<Locale | null> {
      if (typeof code !== 'string') return Promise.resolve(null);
      return query().findOne({ where: { code }, select: LOCALE_FIELDS }) as unknown as Promise<Locale | null>;
    },

    count(params: Record<string, unknown> = {}): Promise<number> {
      return query().count({ where: params });
    },

    /**
     * `{ code, name }`: the code must be in the ISO list and not used yet; without a name the ISO one is given
     * (`name: null` keeps none, as the admin panel's form makes it). `editor`: the admin, as `createdBy`/`updatedBy`.
     */
    async create(input: { code?: unknown; name?: unknown; isDefault?: unknown }, editor?: Editor): Promise<Locale> {
      const isoLocale = iso.findIsoLocale(input?.code);
      if (!isoLocale) throw new ValidationError(`locale code ${JSON.stringify(input?.code)} is not an ISO locale code`);
      const name = input.name === undefined ? isoLocale.name : input.name === null ? null : checkName(input.name);
      return strapi.db.transaction(async () => {
        // Two creates of one code take turns, so the second sees the first and is refused.
        await strapi.db.lock(['i18n:locales']);
        if (await service.findByCode(isoLocale.code)) throw new ApplicationError('This locale already exists');
        const authorship = editor ? { createdBy: editor.id, updatedBy: editor.id } : {};
        const created = (await query().create({ data: { code: isoLocale.code, name, ...authorship }, select: LOCALE_FIELDS })) as unknown as Locale;
        if (input.isDefault === true) await service.setDefaultLocale({ code: created.code });
        return created;
      });
    },

    /** Strapi's `update({ id }, { name })`: the code of a locale never changes. */
    async update(where: Record<string, unknown>, updates: { name?: unknown; code?: unknown; isDefault?: unknown }, editor?: Editor): Promise<Locale | null> {
      const existing = (await query().findOne({ where, select: LOCALE_FIELDS })) as unknown as Locale | null;
      if (!existing) return null;
      if (updates.code !== undefined && updates.code !== existing.code) throw new ValidationError('the code of a locale cannot change');
      const data: Record<string, unknown> = editor ? { updatedBy: editor.id } : {};
      if (updates.name !== undefined) data.name = updates.name === null ? null : checkName(updates.name);
      const updated = (await query().update({ where: { id: existing.id }, data, select: LOCALE_FIELDS })) as unknown as Locale;
      if (updates.isDefault === true) await service.setDefaultLocale({ code: existing.code });
      return updated;
    },

    /** Deletes a locale and every localized entry in it; the default locale cannot be deleted. */
    async delete({ id }: { id: unknown }): Promise<Locale | null> {
      const locale = await service.findById(id);
      if (!locale) return null;
      if (locale.code === defaultCode) throw new ApplicationError('Cannot delete the default locale');
      await strapi.db.transaction(async () => {
        for (const contentType of strapi.contentTypes.values()) {
          if (isLocalizedContentType(contentType)) await strapi.db.query(contentType.uid).deleteMany({ where: { [LOCALE_ATTRIBUTE]: locale.code } });
        }
        await query().delete({ where: { id: locale.id } });
      });
      return { ...locale, isDefault: false };
    },

    /** The default locale's code (from memory: no query). */
    getDefaultLocale(): string {
      return defaultCode;
    },

    async setDefaultLocale({ code }: { code?: unknown }): Promise<void> {
      if (!(await service.findByCode(code))) throw new ApplicationError("This locale doesn't exist");
      await store().set({ key: DEFAULT_LOCALE_KEY, value: code });
      defaultCode = code as string;
    },

    /** Adds `isDefault` to each locale, as Strapi answers them. */
    setIsDefault<T extends Locale | Locale[] | null>(locales: T): T {
      if (locales === null) return locales;
      const mark = (locale: Locale) => ({ ...locale, isDefault: locale.code === defaultCode });
      return (Array.isArray(locales) ? locales.map(mark) : mark(locales)) as T;
    },

    /** At bootstrap: a database without locales gets English as the default; the default is read into memory. */
    async initDefaultLocale(): Promise<void> {
      if ((await service.count()) === 0) {
        await query().create({ data: { ...DEFAULT_LOCALE } });
        await store().set({ key: DEFAULT_LOCALE_KEY, value: DEFAULT_LOCALE.code });
      }
      const stored = await store().get({ key: DEFAULT_LOCALE_KEY });
      if (typeof stored === 'string') defaultCode = stored;
      else {
        const [first] = await service.find();
        if (first) await service.setDefaultLocale({ code: first.code });
      }
    },
  };
  return service;
}

export type LocalesService = ReturnType<typeof localesService>;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.length < 1 || name.length > 50) throw new ValidationError('a locale name is a string of 1 to 50 characters');
  return name;
}

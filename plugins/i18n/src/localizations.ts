/**
 * Localizations: the entries of one content in different locales, each
 * linked to every other through `localizations`. This module creates a new
 * localization of an entry, keeps the groups' links complete, and keeps the
 * shared (non-localized) fields identical across a group.
 *
 * It runs inside the write's transaction: as database lifecycles of the
 * localized types (subscribed at bootstrap), so entity-service, content-API
 * and query-engine writes alike keep groups consistent, and a failure rolls
 * everything back.
 */
import { ApplicationError, NotFoundError, parseId, type App, type AuthState, type Entity, type LifecycleEvent } from '@tessera/core';
import type { ContentType } from '@tessera/database';
import { LOCALE_UID } from './constants';
import { LOCALE_ATTRIBUTE, LOCALIZATIONS_ATTRIBUTE, sharedAttributes, type SharedAttributes } from './localized-types';
import type { LocalesService } from './locales';

/** Marks the plugin's own writes to group members: they are neither stripped nor synced again. */
const INTERNAL = Symbol('i18n internal write');

type Data = Record<string | symbol, unknown>;

export function localizationsService({ strapi }: { strapi: App }) {
  const locales = () => strapi.plugin('i18n')!.service<LocalesService>('locales');
  const shared = new Map<string, SharedAttributes>();
  const sharedOf = (uid: string) => {
    let attributes = shared.get(uid);
    if (!attributes) shared.set(uid, (attributes = sharedAttributes(strapi.contentType(uid))));
    return attributes;
  };

  /** Ids of the other entries of `id`'s group. */
  async function siblingIds(uid: string, id: number): Promise<number[]> {
    const entry = await strapi.db.query(uid).findOne({ where: { id }, select: ['id'], populate: { [LOCALIZATIONS_ATTRIBUTE]: { select: ['id'] } } });
    return ((entry?.[LOCALIZATIONS_ATTRIBUTE] as Entity[] | undefined) ?? []).map((sibling) => sibling.id);
  }

  /** The shared values of an entry, in the form a write takes (components without ids, media as ids). */
  async function sharedValues(uid: string, id: number): Promise<Record<string, unknown>> {
    const { columns, links } = sharedOf(uid);
    if (columns.length === 0 && links.length === 0) return {};
    const populate = Object.fromEntries(links.map((name) => [name, true]));
    const entry = await strapi.db.query(uid).findOne({ where: { id }, select: ['id', ...columns], populate });
    if (!entry) return {};
    const values: Record<string, unknown> = {};
    for (const name of columns) values[name] = entry[name];
    for (const name of links) values[name] = writable(strapi.contentType(uid).attributes[name]?.type, entry[name]);
    return values;
  }

  /** Writes `data` on each entry in `ids`, marked as the plugin's own write. */
  async function writeEach(uid: string, ids: number[], data: (id: number) => Record<string, unknown>): Promise<void> {
    const repository = strapi.db.query(uid);
    for (const id of ids) await repository.update({ where: { id }, data: { ...data(id), [INTERNAL]: true } as Record<string, unknown> });
  }

  /** Links every entry of the group with every other one. */
  async function linkGroup(uid: string, group: number[]): Promise<void> {
    await writeEach(uid, group, (id) => ({ [LOCALIZATIONS_ATTRIBUTE]: group.filter((other) => other !== id) }));
  }

  /** Copies `id`'s shared values to the rest of its group. */
  async function pushShared(uid: string, id: number, siblings: number[]): Promise<void> {
    if (siblings.length === 0) return;
    const values = await sharedValues(uid, id);
    if (Object.keys(values).length === 0) return;
    const updatedAt = new Date();
    await writeEach(uid, siblings, () => ({ ...values, updatedAt }));
  }

  /**
   * A single type's entries are one content in several locales: a new
   * locale's entry joins the others, and takes their shared values where
   * its data sets none.
   */
  async function joinSingleTypeGroup(uid: string, data: Data): Promise<void> {
    if (data[LOCALIZATIONS_ATTRIBUTE] !== undefined) return;
    const others = await strapi.db.query(uid).findMany({ select: ['id'], orderBy: { id: 'asc' } });
    if (others.length === 0) return;
    data[LOCALIZATIONS_ATTRIBUTE] = others.map((entry) => entry.id);
    for (const [name, value] of Object.entries(await sharedValues(uid, others[0].id))) if (data[name] === undefined) data[name] = value;
  }

  const service = {
    sharedValues,

    /**
     * `POST /api/<plural>/:id/localizations`: a new entry in `body.locale`
     * for the content of entry `id`, with the source's shared values (the
     * body may set them), linked to every entry of the group; a draft unless
     * `publishedAt` is sent. Answers the new entry with its localizations,
     * or with what `params` ask (GraphQL: its selection set's fields and populate).
     */
    async createLocalization(uid: string, id: unknown, body: unknown, auth: AuthState, params?: Record<string, unknown>): Promise<Entity> {
      const input = isRecord(body) ? body : {};
      const locale = input[LOCALE_ATTRIBUTE];
      if (locale === undefined || locale === null) throw new ApplicationError('locale is missing');
      if (!(await locales().findByCode(locale))) throw new ApplicationError('locale is invalid');
      const sourceId = parseId(id);
      const source = await strapi.db.query(uid).findOne({
        where: { id: sourceId },
        select: ['id', LOCALE_ATTRIBUTE],
        populate: { [LOCALIZATIONS_ATTRIBUTE]: { select: ['id', LOCALE_ATTRIBUTE] } },
      });
      if (!source) throw new NotFoundError();
      const group = [source, ...((source[LOCALIZATIONS_ATTRIBUTE] as Entity[] | undefined) ?? [])];
      if (group.some((entry) => entry[LOCALE_ATTRIBUTE] === locale)) throw new ApplicationError('locale is already used');

      const { [LOCALIZATIONS_ATTRIBUTE]: _ignored, ...fields } = input;
      const data: Record<string, unknown> = { ...(await sharedValues(uid, sourceId)), ...fields, [LOCALE_ATTRIBUTE]: locale };
      data[LOCALIZATIONS_ATTRIBUTE] = group.map((entry) => entry.id);
      if (strapi.db.entity(uid).draftAndPublish && data.publishedAt === undefined) data.publishedAt = null;
      const answer = params ?? (auth.ability.can(`${uid}.find`) ? { populate: [LOCALIZATIONS_ATTRIBUTE] } : {});
      return strapi.contentApi.create(uid, data, { auth, params: answer });
    },

    /** Database lifecycles for the localized types (inside each write's transaction). */
    lifecycles(contentTypes: ContentType[]) {
      return {
        models: contentTypes.map((contentType) => contentType.uid),
        /** A create without a locale gets the default one; an unknown locale is refused. */
        async beforeCreate(event: LifecycleEvent) {
          const data = dataOf(event);
          if (data[INTERNAL]) return;
          const locale = data[LOCALE_ATTRIBUTE];
          if (locale === undefined || locale === null) data[LOCALE_ATTRIBUTE] = locales().getDefaultLocale();
          else if ((await strapi.db.query(LOCALE_UID).count({ where: { code: locale } })) === 0) throw new ApplicationError("This locale doesn't exist");
          if (strapi.contentType(event.model.uid).kind === 'singleType') await joinSingleTypeGroup(event.model.uid, data);
        },
        /** A create that names localizations joins their group: links completed, shared values spread. */
        async afterCreate(event: LifecycleEvent) {
          const data = dataOf(event);
          if (data[INTERNAL] || data[LOCALIZATIONS_ATTRIBUTE] === undefined) return;
          const id = (event.result as Entity).id;
          const siblings = await siblingIds(event.model.uid, id);
          if (siblings.length === 0) return;
          await linkGroup(event.model.uid, [id, ...siblings]);
          await pushShared(event.model.uid, id, siblings);
        },
        /** An entry's locale never changes, and its group is the plugin's to keep. */
        beforeUpdate(event: LifecycleEvent) {
          const data = dataOf(event);
          if (data[INTERNAL]) return;
          delete data[LOCALE_ATTRIBUTE];
          delete data[LOCALIZATIONS_ATTRIBUTE];
        },
        /** A shared field written on one localization is written on all of them. */
        async afterUpdate(event: LifecycleEvent) {
          const data = dataOf(event);
          if (data[INTERNAL]) return;
          const { columns, links } = sharedOf(event.model.uid);
          if (![...columns, ...links].some((name) => data[name] !== undefined)) return;
          const id = (event.result as Entity | null)?.id;
          if (id === undefined) return;
          await pushShared(event.model.uid, id, await siblingIds(event.model.uid, id));
        },
      };
    },
  };
  return service;
}

export type LocalizationsService = ReturnType<typeof localizationsService>;

function dataOf(event: LifecycleEvent): Data {
  const params = event.params as { data?: Data };
  if (!params.data) params.data = {};
  return params.data;
}

/** A read value in the form a write takes: media as ids, components without their ids. */
function writable(type: string | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'media') return Array.isArray(value) ? value.map((file) => (file as Entity).id) : (value as Entity).id;
  return withoutIds(value);
}

function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'id') copy[key] = withoutIds(item);
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

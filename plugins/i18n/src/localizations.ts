/**
 * The `localizations` service: creating a new localization of an entry, the
 * one operation that links entries (`POST /api/<plural>/:id/localizations`,
 * a single type's `POST /api/<singular>/localizations`, and GraphQL's
 * `create<Type>Localization`), and the content manager's create of a new
 * locale version (`joinGroup`). Groups themselves are read and
 * written by localization-groups.ts; what every other write keeps true is
 * localized-writes.ts.
 */
import { parseId, type App, type Caller, type Entity } from '@tessera/core';
import { isDeepStrictEqual } from 'node:util';
import { ApplicationError, ForbiddenError, NotFoundError } from '@tessera/errors';
import { LOCALE_ATTRIBUTE, LOCALIZATIONS_ATTRIBUTE } from './localized-types';
import { isRecord, LocalizationGroups, type GroupMember } from './localization-groups';

/** Strapi 4.26.2's one refusal for a version it cannot make (its i18n content-manager middleware's message). */
const CANNOT_JOIN = "The related entity doesn't exist or the entity already exists in this locale";

export function localizationsService({ strapi }: { strapi: App }) {
  const locales = () => strapi.plugin('i18n')!.service('locales');
  const groups = new LocalizationGroups(strapi);

  return {
    /** Reads and writes groups of localizations (for the write rule and app code). */
    groups,

    /** The shared values of entry `id` of `uid`, in the form a write takes. */
    sharedValues: (uid: string, id: number) => groups.sharedValues(uid, id),

    /**
     * A new entry in `body.locale` for the content of entry `id`, with the
     * source's shared values (the body may set them: the group takes them
     * too), linked to every entry of the group; a draft unless `publishedAt`
     * is sent. A group never holds one locale twice: requests for one type
     * take turns, so of two racing for one locale the second is a 400.
     * Answers the new entry with its localizations, or with what `params`
     * ask (GraphQL: its selection set's fields and populate).
     */
    async createLocalization(uid: string, id: unknown, body: unknown, caller: Caller, params?: Record<string, unknown>): Promise<Entity> {
      const input = isRecord(body) ? body : {};
      const single = strapi.contentTypes.get(uid).kind === 'singleType';
      // A single type's route has no id: Strapi's handler takes the type's first entry, whatever its locale.
      const sourceId = single ? undefined : parseId(id);
      const locale = input[LOCALE_ATTRIBUTE];
      if (locale === undefined || locale === null) throw new ApplicationError('locale is missing');
      if (!(await locales().findByCode(locale))) throw new ApplicationError('locale is invalid');
      const answer = params ?? (caller.may(`${uid}.find`) ? { populate: [LOCALIZATIONS_ATTRIBUTE] } : {});
      const createdId = await strapi.db.transaction(async () => {
        await strapi.db.lock([`i18n:localizations:${uid}`]);
        const source = sourceId ?? (await groups.singleTypeEntries(uid))[0]?.id;
        const group = source === undefined ? null : await groups.groupOf(uid, source);
        // @strapi/utils' NotFoundError's own message, as Strapi's createLocalization throws it.
        if (!group) throw new NotFoundError('Entity not found');
        if (group.some((member) => member.locale === locale)) throw new ApplicationError('locale is already used');
        const { [LOCALIZATIONS_ATTRIBUTE]: _ignored, ...fields } = input;
        const data: Record<string, unknown> = { ...(await groups.sharedValues(uid, source!)), ...fields, [LOCALE_ATTRIBUTE]: locale };
        if (strapi.db.entity(uid).draftAndPublish && data.publishedAt === undefined) data.publishedAt = null;
        // A create through the content API (the caller's validation and link permissions), then the links.
        const created = await strapi.contentOperations.create(uid, data, { caller, params: { fields: ['id'] } });
        const members = group.map((member) => member.id);
        await groups.link(uid, [created.id, ...members]);
        await groups.spreadShared(uid, created.id, members);
        return created.id;
      });
      // Read once linked, as a write answers: the entry whatever its state, its links as the caller may see them.
      const [entry] = await strapi.contentOperations.findByIds(uid, [createdId], { caller, params: answer });
      return entry;
    },

    /**
     * A new entry of `uid` in `locale` that joins entry `relatedId`'s group: the content manager's create with
     * `relatedEntityId` (Strapi's i18n middleware on the content manager's create). `create` writes the entry
     * from `data` completed with the group's shared values where `data` has none (null or missing, as Strapi
     * fills them) and answers its id; then it is linked to every entry of the group, and the group takes its
     * shared values. Refused (400, Strapi's message) when there is no entry `relatedId` or the group already
     * has `locale`, before anything is written; requests for one type take turns, so of two racing for one
     * locale the second is refused. The caller checks `locale` exists and that its admin may create in it; a body
     * that changes a shared value changes every version, so it needs `mayWriteGroup` (the caller's update right on
     * every member) to hold: otherwise 403, nothing written.
     */
    async joinGroup(uid: string, relatedId: unknown, locale: string, data: Record<string, unknown>, create: (data: Record<string, unknown>) => Promise<number>, mayWriteGroup?: (group: GroupMember[]) => Promise<boolean>): Promise<number> {
      // An id that cannot be one names no entry: the same refusal.
      const sourceId = (typeof relatedId === 'string' || typeof relatedId === 'number') && /^\d{1,15}$/.test(String(relatedId)) ? Number(relatedId) : undefined;
      return strapi.db.transaction(async () => {
        await strapi.db.lock([`i18n:localizations:${uid}`]);
        const group = sourceId === undefined ? null : await groups.groupOf(uid, sourceId);
        if (!group || group.some((member) => member.locale === locale)) throw new ApplicationError(CANNOT_JOIN);
        const shared = await groups.sharedValues(uid, sourceId!);
        const changesShared = Object.entries(shared).some(([name, value]) => data[name] !== undefined && data[name] !== null && !isDeepStrictEqual(data[name], value));
        if (changesShared && mayWriteGroup && !(await mayWriteGroup(group))) throw new ForbiddenError();
        const filled = Object.fromEntries(Object.entries(shared).filter(([name]) => data[name] === undefined || data[name] === null));
        const createdId = await create({ ...data, ...filled, [LOCALE_ATTRIBUTE]: locale });
        const members = group.map((member) => member.id);
        await groups.link(uid, [createdId, ...members]);
        await groups.spreadShared(uid, createdId, members);
        return createdId;
      });
    },
  };
}

export type LocalizationsService = ReturnType<typeof localizationsService>;

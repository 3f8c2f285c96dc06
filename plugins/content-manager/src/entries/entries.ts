/**
 * The content manager's operations on entries, transport-free: reads through the entity service with the
 * content manager's populate (populate.ts), answers shaped as Strapi's (shape.ts, authors.ts), and writes through
 * the entity service — validation, lifecycles, webhooks, i18n's write rule and draft & publish, as REST and
 * GraphQL writes — stamped with the signed-in admin (`createdBy`/`updatedBy`). The routes (collection-types.ts,
 * single-types.ts, bulk.ts, clone.ts) decide access before they call these.
 */
import type { App } from '@tessera/core';
import type { Entity, EntityMetadata } from '@tessera/database';
import { ApplicationError, NotFoundError } from '@tessera/errors';
import { withAuthors } from './authors';
import { entryPopulate, isVisible, type Populate } from './populate';
import { checkPublishable } from './publish-check';
import { shapeEntry } from './shape';
import { hiddenFieldsOf, type HiddenFields } from './hidden-fields';
import type { WriteBody } from './input';

export type Answer = Record<string, unknown>;

export class Entries {
  /** What the schemas hide from admins (hidden-fields.ts), for the routes' inputs and queries too. */
  readonly hidden: HiddenFields;

  constructor(private readonly app: App) {
    this.hidden = hiddenFieldsOf(app);
  }

  /** Entries as answers: shaped with the admin's readable fields, authors attached (two queries for all of them). */
  async answers(entity: EntityMetadata, entries: Entity[], fields: string[] | null): Promise<Answer[]> {
    const shaped = entries.map((entry) => shapeEntry(entry, entity, this.app.db.metadata, this.hidden, fields));
    const hidden = [...entity.links.values()].filter((link) => !isVisible(link)).map((link) => link.name);
    return withAuthors(this.app, entity.uid, shaped, hidden);
  }

  async answer(entity: EntityMetadata, entry: Entity, fields: string[] | null): Promise<Answer> {
    return (await this.answers(entity, [entry], fields))[0];
  }

  /** One entry with `populate` (an entry's deep populate by default), whatever its state or locale; null if none. */
  async read(entity: EntityMetadata, id: number, populate: Populate = entryPopulate(entity, this.app.db.metadata)): Promise<Entity | null> {
    return this.app.entityService.findOne(entity.uid, id, { populate });
  }

  /** The entry, or Strapi's 404. */
  async existing(entity: EntityMetadata, id: number, populate?: Populate): Promise<Entity> {
    const entry = await this.read(entity, id, populate);
    if (!entry) throw new NotFoundError();
    return entry;
  }

  /** Does the entry match `filters` (an action's conditions)? One count; true without conditions. */
  async matches(entity: EntityMetadata, id: number, filters: Record<string, unknown> | undefined): Promise<boolean> {
    if (filters === undefined) return true;
    return (await this.app.entityService.count(entity.uid, { filters: { $and: [{ id }, filters] }, locale: 'all' })) > 0;
  }

  /** A new entry (a draft, on a type with draft & publish), created by `adminId`; answers it read back. */
  async create(entity: EntityMetadata, data: WriteBody, adminId: number): Promise<Entity> {
    // Which entries are localizations of one another is the i18n part's (Strapi's i18n middleware sets it too).
    const { localizations: _links, ...own } = data;
    const stamped: WriteBody = { ...own, createdBy: adminId, updatedBy: adminId };
    if (entity.draftAndPublish) stamped.publishedAt = null;
    const created = await this.app.entityService.create(entity.uid, { data: stamped });
    return this.existing(entity, created.id);
  }

  async update(entity: EntityMetadata, id: number, data: WriteBody, adminId: number): Promise<Entity> {
    // The panel sends the whole entry back; an entry's locale and localizations never change by an edit (Strapi's
    // i18n omits them from an update).
    const { locale: _locale, localizations: _links, ...own } = data;
    await this.app.entityService.update(entity.uid, id, { data: { ...own, updatedBy: adminId } });
    return this.existing(entity, id);
  }

  /** Deletes the entry; answers it as it was. */
  async delete(entity: EntityMetadata, entry: Entity): Promise<Entity> {
    await this.app.entityService.delete(entity.uid, entry.id);
    return entry;
  }

  async publish(entity: EntityMetadata, entry: Entity, adminId: number): Promise<Entity> {
    if (entry.publishedAt) throw new ApplicationError('already.published');
    checkPublishable(entry, entity, this.app.db.metadata);
    await this.app.entityService.update(entity.uid, entry.id, { data: { publishedAt: new Date(), updatedBy: adminId } });
    return this.existing(entity, entry.id);
  }

  async unpublish(entity: EntityMetadata, entry: Entity, adminId: number): Promise<Entity> {
    if (!entry.publishedAt) throw new ApplicationError('already.draft');
    await this.app.entityService.update(entity.uid, entry.id, { data: { publishedAt: null, updatedBy: adminId } });
    return this.existing(entity, entry.id);
  }
}

/**
 * `/content-manager/collection-types/:model…`: Strapi 4.26.2's `collection-types` controller — list, find,
 * create, update, delete, publish, unpublish. Each handler asks the admin's access to the type first (403), then
 * finds the entry (404), then checks the entry against the action's conditions (403), as Strapi's
 * permission checker does, and writes through the entity service (entries.ts).
 */
import type Koa from 'koa';
import type { App, ContentManagerWrite } from '@tessera/core';
import type { EntityMetadata } from '@tessera/database';
import { ForbiddenError, ValidationError } from '@tessera/errors';
import { modelAccess, signedInAdmin, withConditions, type CmAction, type ModelAccess } from './access';
import { Entries } from './entries';
import { writableInput } from './input';
import { layoutActions } from './layout-actions';
import { editableType } from './model';
import { createInLocale, creationLocale } from './locales';
import { listPopulate } from './populate';
import { readQuery } from './query';
import { toEntryId } from './validation';

export interface Target {
  entity: EntityMetadata;
  access: ModelAccess;
}

/** The route's type and the admin's access to it; 403 when the admin may not do `action` at all. */
export function target(app: App, ctx: Koa.Context, action: CmAction): Target {
  const entity = editableType(app, String(ctx.params.model));
  const access = modelAccess(ctx, entity.uid);
  if (!access.can(action)) throw new ForbiddenError();
  return { entity, access };
}

/** Publishing needs draft & publish on the type (Strapi's `has-draft-and-publish` policy: 403 otherwise). */
export function publishable(scope: Target): Target {
  if (!scope.entity.draftAndPublish) throw new ForbiddenError();
  return scope;
}

export function entryId(ctx: Koa.Context, name = 'id'): number {
  const id = toEntryId(ctx.params[name]);
  if (id === null) throw new ValidationError(`Invalid id ${JSON.stringify(ctx.params[name])}`);
  return id;
}

export function collectionTypes(app: App) {
  const entries = new Entries(app);
  const writeThrough = layoutActions(app);

  /** The entry `:id` if the admin may do `action` on it: 404 when missing, 403 when its conditions exclude it. */
  async function permittedEntry(ctx: Koa.Context, { entity, access }: Target, action: CmAction, id = entryId(ctx)) {
    const entry = await entries.existing(entity, id);
    if (!(await entries.matches(entity, id, access.where(action)))) throw new ForbiddenError();
    return entry;
  }

  /** The content manager's create: the body kept to what the admin may write, then the trusted values; in a locale. */
  async function create(ctx: Koa.Context, { entity, access }: Target, { body, trusted }: ContentManagerWrite): Promise<void> {
    const data = { ...writableInput(body, entity, app.db.metadata, entries.hidden, access.fields('create')), ...trusted };
    const query = ctx.query as Record<string, unknown>;
    const locale = await creationLocale(app, entity, query, access);
    const adminId = signedInAdmin(ctx).id;
    const write = (values: Record<string, unknown>) => entries.create(entity, values, adminId);
    // A new version of another locale's entry is linked after its create: read it back once linked.
    const created = locale === undefined ? await write(data) : await entries.existing(entity, await createInLocale(app, entity, access, data, locale, query, write));
    ctx.body = await entries.answer(entity, created, access.fields('read'));
  }

  return {
    async find(ctx: Koa.Context) {
      const { entity, access } = target(app, ctx, 'read');
      const query = readQuery(ctx.query as Record<string, unknown>, entity, access.fields('read'), entries.hidden(entity.uid));
      const page = await app.entityService.findPage(entity.uid, {
        ...query,
        filters: withConditions(access, 'read', query.filters),
        populate: listPopulate(entity, app.db.metadata),
      });
      ctx.body = { results: await entries.answers(entity, page.results, access.fields('read')), pagination: page.pagination };
    },

    async findOne(ctx: Koa.Context) {
      const scope = target(app, ctx, 'read');
      const entry = await permittedEntry(ctx, scope, 'read');
      ctx.body = await entries.answer(scope.entity, entry, scope.access.fields('read'));
    },

    async create(ctx: Koa.Context) {
      const scope = target(app, ctx, 'create');
      return writeThrough(ctx, scope.entity.uid, 'create', (write) => create(ctx, scope, write));
    },

    async update(ctx: Koa.Context) {
      const scope = target(app, ctx, 'update');
      const entry = await permittedEntry(ctx, scope, 'update');
      const proceed = async ({ body, trusted }: ContentManagerWrite) => {
        const data = { ...writableInput(body, scope.entity, app.db.metadata, entries.hidden, scope.access.fields('update')), ...trusted };
        const updated = await entries.update(scope.entity, entry.id, data, signedInAdmin(ctx).id);
        ctx.body = await entries.answer(scope.entity, updated, scope.access.fields('read'));
      };
      return writeThrough(ctx, scope.entity.uid, 'update', proceed);
    },

    async delete(ctx: Koa.Context) {
      const scope = target(app, ctx, 'delete');
      const entry = await permittedEntry(ctx, scope, 'delete');
      const answer = await entries.answer(scope.entity, entry, scope.access.fields('read'));
      await entries.delete(scope.entity, entry);
      ctx.body = answer;
    },

    async publish(ctx: Koa.Context) {
      const scope = publishable(target(app, ctx, 'publish'));
      const entry = await permittedEntry(ctx, scope, 'publish');
      const published = await entries.publish(scope.entity, entry, signedInAdmin(ctx).id);
      ctx.body = await entries.answer(scope.entity, published, scope.access.fields('read'));
    },

    async unpublish(ctx: Koa.Context) {
      const scope = publishable(target(app, ctx, 'publish'));
      const entry = await permittedEntry(ctx, scope, 'publish');
      const unpublished = await entries.unpublish(scope.entity, entry, signedInAdmin(ctx).id);
      ctx.body = await entries.answer(scope.entity, unpublished, scope.access.fields('read'));
    },
  };
}

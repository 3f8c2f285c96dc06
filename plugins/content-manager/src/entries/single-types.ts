/**
 * `/content-manager/single-types/:model…` (Strapi 4.26.2's `single-types` controller): the type's one entry (in
 * the request's `locale` for a localized type) — find, create-or-update, delete, publish, unpublish, and its draft
 * relations. Found with relations as their entries' own fields (Strapi's `getDeepPopulate`); what a write answers
 * has relations as `{ count }`, as for a collection type's entry.
 */
import type Koa from 'koa';
import { requestBody, type App } from '@tessera/core';
import type { Entity } from '@tessera/database';
import { ForbiddenError, NotFoundError } from '@tessera/errors';
import { modelAccess, signedInAdmin, type CmAction } from './access';
import { publishable, target, type Target } from './collection-types';
import { Entries } from './entries';
import { bodyObject, writableInput } from './input';
import { creationLocale } from './locales';
import { editableType } from './model';
import { draftCountPopulate, singleTypePopulate, sumDraftCounts } from './populate';

export function singleTypes(app: App) {
  const entries = new Entries(app);

  /** The single type's entry (deep, relations as entries), or null. */
  async function current({ entity }: Target, ctx: Koa.Context): Promise<Entity | null> {
    const query = ctx.query as Record<string, unknown>;
    const locale = typeof query.locale === 'string' ? query.locale : undefined;
    const found = await app.entityService.findMany(entity.uid, { populate: singleTypePopulate(entity, app.db.metadata), locale });
    return Array.isArray(found) ? found[0] ?? null : found;
  }

  async function permitted(scope: Target, ctx: Koa.Context, action: CmAction): Promise<Entity> {
    const entry = await current(scope, ctx);
    if (!entry) throw new NotFoundError();
    if (!(await entries.matches(scope.entity, entry.id, scope.access.where(action)))) throw new ForbiddenError();
    return entry;
  }

  return {
    async find(ctx: Koa.Context) {
      const scope = target(app, ctx, 'read');
      const entry = await current(scope, ctx);
      if (!entry) throw scope.access.can('create') ? new NotFoundError() : new ForbiddenError();
      if (!(await entries.matches(scope.entity, entry.id, scope.access.where('read')))) throw new ForbiddenError();
      ctx.body = await entries.answer(scope.entity, entry, scope.access.fields('read'));
    },

    async createOrUpdate(ctx: Koa.Context) {
      const entity = editableType(app, String(ctx.params.model));
      const access = modelAccess(ctx, entity.uid);
      if (!access.can('create') && !access.can('update')) throw new ForbiddenError();
      const scope = { entity, access };
      const entry = await current(scope, ctx);
      const adminId = signedInAdmin(ctx).id;
      const body = bodyObject(requestBody(ctx));
      if (!entry) {
        if (!access.can('create')) throw new ForbiddenError();
        const data = writableInput(body, entity, app.db.metadata, entries.hidden, access.fields('create'));
        const locale = await creationLocale(app, entity, ctx.query as Record<string, unknown>, access);
        if (locale !== undefined) data.locale = locale;
        const created = await entries.create(entity, data, adminId);
        ctx.body = await entries.answer(entity, created, access.fields('read'));
        return;
      }
      if (!access.can('update') || !(await entries.matches(entity, entry.id, access.where('update')))) throw new ForbiddenError();
      const updated = await entries.update(entity, entry.id, writableInput(body, entity, app.db.metadata, entries.hidden, access.fields('update')), adminId);
      ctx.body = await entries.answer(entity, updated, access.fields('read'));
    },

    async delete(ctx: Koa.Context) {
      const scope = target(app, ctx, 'delete');
      const entry = await permitted(scope, ctx, 'delete');
      const full = await entries.existing(scope.entity, entry.id);
      const answer = await entries.answer(scope.entity, full, scope.access.fields('read'));
      await entries.delete(scope.entity, full);
      ctx.body = answer;
    },

    async publish(ctx: Koa.Context) {
      const scope = publishable(target(app, ctx, 'publish'));
      const entry = await permitted(scope, ctx, 'publish');
      ctx.body = await entries.answer(scope.entity, await entries.publish(scope.entity, entry, signedInAdmin(ctx).id), scope.access.fields('read'));
    },

    async unpublish(ctx: Koa.Context) {
      const scope = publishable(target(app, ctx, 'publish'));
      const entry = await permitted(scope, ctx, 'publish');
      ctx.body = await entries.answer(scope.entity, await entries.unpublish(scope.entity, entry, signedInAdmin(ctx).id), scope.access.fields('read'));
    },

    async countDraftRelations(ctx: Koa.Context) {
      const scope = target(app, ctx, 'read');
      const entry = await permitted(scope, ctx, 'read');
      const populate = draftCountPopulate(scope.entity, app.db.metadata);
      const counted = populate ? await entries.read(scope.entity, entry.id, populate) : null;
      ctx.body = { data: counted ? sumDraftCounts(counted, scope.entity, app.db.metadata) : 0 };
    },
  };
}

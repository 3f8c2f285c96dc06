/**
 * The list's bulk actions and the draft-relation counts the panel asks before publishing (Strapi 4.26.2's
 * `bulkDelete`, `bulkPublish`, `bulkUnpublish`, `countDraftRelations`, `countManyEntriesDraftRelations`).
 * A bulk action reads its entries in one query, refuses the whole action when one is missing (404) or outside the
 * admin's conditions (403), and writes each entry through the entity service in one transaction (lifecycles and
 * webhooks per entry, as the single actions; nothing written when one fails).
 */
import type Koa from 'koa';
import { requestBody, type App } from '@tessera/core';
import type { Entity } from '@tessera/database';
import { ForbiddenError, NotFoundError } from '@tessera/errors';
import { signedInAdmin, withConditions, type CmAction } from './access';
import { entryId, publishable, target, type Target } from './collection-types';
import { Entries } from './entries';
import { componentsPopulate, draftCountPopulate, sumDraftCounts } from './populate';
import { checkPublishable } from './publish-check';
import { bulkIds, idList } from './validation';

export function bulkActions(app: App) {
  const entries = new Entries(app);

  /** The named entries (id and state), all of them or a 404; all within the action's conditions or a 403. */
  async function named({ entity, access }: Target, action: CmAction, ids: number[]): Promise<Entity[]> {
    const filters = { id: { $in: ids } };
    const populate = componentsPopulate(entity, app.db.metadata);
    const found = (await app.entityService.findMany(entity.uid, { filters, populate, locale: 'all' })) as Entity[];
    if (found.length < ids.length) throw new NotFoundError();
    if (access.where(action) !== undefined) {
      const permitted = await app.entityService.count(entity.uid, { filters: withConditions(access, action, filters), locale: 'all' });
      if (permitted < ids.length) throw new ForbiddenError();
    }
    return found;
  }

  async function setPublished(ctx: Koa.Context, publish: boolean): Promise<void> {
    const scope = publishable(target(app, ctx, 'publish'));
    const ids = bulkIds(requestBody(ctx));
    const found = await named(scope, 'publish', ids);
    const adminId = signedInAdmin(ctx).id;
    if (publish) for (const entry of found) checkPublishable(entry, scope.entity, app.db.metadata);
    const changing = found.filter((entry) => Boolean(entry.publishedAt) !== publish);
    await app.db.transaction(async () => {
      for (const entry of changing) {
        await app.entityService.update(scope.entity.uid, entry.id, { data: { publishedAt: publish ? new Date() : null, updatedBy: adminId } });
      }
    });
    ctx.body = { count: changing.length };
  }

  return {
    bulkPublish: (ctx: Koa.Context) => setPublished(ctx, true),
    bulkUnpublish: (ctx: Koa.Context) => setPublished(ctx, false),

    /** Deletes the named entries the admin may delete (missing or excluded ones are left, as Strapi's `deleteMany`). */
    async bulkDelete(ctx: Koa.Context) {
      const { entity, access } = target(app, ctx, 'delete');
      const ids = bulkIds(requestBody(ctx));
      const filters = withConditions(access, 'delete', { id: { $in: ids } });
      const found = (await app.entityService.findMany(entity.uid, { filters, fields: ['id'], locale: 'all' })) as Entity[];
      await app.db.transaction(async () => {
        for (const entry of found) await app.entityService.delete(entity.uid, entry.id);
      });
      ctx.body = { count: found.length };
    },

    async countDraftRelations(ctx: Koa.Context) {
      const scope = target(app, ctx, 'read');
      const id = entryId(ctx);
      await entries.existing(scope.entity, id, {});
      if (!(await entries.matches(scope.entity, id, scope.access.where('read')))) throw new ForbiddenError();
      const populate = draftCountPopulate(scope.entity, app.db.metadata);
      const entry = populate ? await entries.read(scope.entity, id, populate) : null;
      ctx.body = { data: entry ? sumDraftCounts(entry, scope.entity, app.db.metadata) : 0 };
    },

    async countManyEntriesDraftRelations(ctx: Koa.Context) {
      const { entity, access } = target(app, ctx, 'read');
      const query = ctx.query as Record<string, unknown>;
      const ids = idList(query, 'ids');
      const locale = typeof query.locale === 'string' ? query.locale : undefined;
      const populate = draftCountPopulate(entity, app.db.metadata);
      if (ids.length === 0 || !populate) {
        ctx.body = { data: 0 };
        return;
      }
      const filters = withConditions(access, 'read', { id: { $in: ids } });
      const found = (await app.entityService.findMany(entity.uid, { filters, populate, locale })) as Entity[];
      ctx.body = { data: found.reduce((sum, entry) => sum + sumDraftCounts(entry, entity, app.db.metadata), 0) };
    },
  };
}


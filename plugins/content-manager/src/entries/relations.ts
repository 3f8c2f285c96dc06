/**
 * The relation pickers (Strapi 4.26.2's `relations` controller):
 * - `relations/:model/:targetField`: the entries an admin may choose — paged, sorted by the picker's main field
 *   (main-field.ts), searched on it with `_q` (`_filter`, `$containsi` by default), without `idsToOmit`, and for
 *   an entry (`entityId`) without the ones it already has (but `idsToInclude`);
 * - `relations/:model/:id/:targetField`: an entry's related entries, paged, last linked first (the panel turns
 *   the pages around), or `{ data }` for a to-one relation.
 * Both list only what the admin may read of the target (its read conditions), and only `id`, the main field and
 * `publishedAt`; a target the content manager does not display (users-permissions' role, in the user's role picker)
 * is listed whole, as Strapi lists it (recorded on the peer), since no permission can name it. Components' relations
 * are served too (`:model` a component uid).
 */
import type Koa from 'koa';
import type { App } from '@tessera/core';
import type { Entity, EntityMetadata, RelationField } from '@tessera/database';
import { ForbiddenError, NotFoundError } from '@tessera/errors';
import { modelAccess, UNRESTRICTED, withConditions, type ModelAccess } from './access';
import { isDisplayed } from '../layouts/model';
import { Entries } from './entries';
import { mainFieldOf } from './main-field';
import { relationOwner } from './model';
import { idList, relationPage, toEntryId } from './validation';

const WHERE_OPERATORS = new Set(['$eq', '$ne', '$in', '$notIn', '$lt', '$lte', '$gt', '$gte', '$null', '$notNull', '$between', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi', '$nei']);

function badRequest(ctx: Koa.Context, message: string): void {
  ctx.status = 400;
  ctx.body = { data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } };
}

interface Picked {
  owner: EntityMetadata;
  field: RelationField;
  target: EntityMetadata;
  targetAccess: ModelAccess;
  fields: string[];
}

export function relationPickers(app: App) {
  const entries = new Entries(app);

  /** The owner, the relation and the target's fields to show; null when Strapi answers a 400 (written here). */
  async function pick(ctx: Koa.Context): Promise<Picked | null> {
    const owner = relationOwner(app, String(ctx.params.model));
    if (!owner) {
      badRequest(ctx, "The model doesn't exist");
      return null;
    }
    const field = owner.links.get(String(ctx.params.targetField));
    const target = field?.kind === 'relation' ? app.db.metadata.get(field.target) : undefined;
    if (field?.kind !== 'relation' || !target) {
      badRequest(ctx, "This relational field doesn't exist");
      return null;
    }
    if (owner.kind !== 'component' && !modelAccess(ctx, owner.uid).can('read', field.name)) throw new ForbiddenError();
    const targetType = app.contentTypes.find(target.uid);
    const targetAccess = targetType && !isDisplayed(targetType.pluginOptions) ? UNRESTRICTED : modelAccess(ctx, target.uid);
    const readable = targetAccess.fields('read');
    const mainField = await mainFieldOf(app, owner, field.name, target, (name) => targetAccess.can('read') && (readable === null || readable.includes(name)), entries.hidden(target.uid));
    const fields = [...new Set(['id', mainField])];
    if (target.draftAndPublish) fields.push('publishedAt');
    return { owner, field, target, targetAccess, fields };
  }

  /** The owning entry exists (404) and, for a content type, is one the admin may read (403). */
  async function checkOwner(ctx: Koa.Context, owner: EntityMetadata, id: number): Promise<void> {
    if (owner.kind === 'component') {
      if ((await app.db.query(owner.uid).count({ where: { id } })) === 0) throw new NotFoundError();
      return;
    }
    await entries.existing(owner, id, {});
    if (!(await entries.matches(owner, id, modelAccess(ctx, owner.uid).where('read')))) throw new ForbiddenError();
  }

  /** The ids `id` links through `field`, in the relation's order (one query). */
  async function linkedIds(owner: EntityMetadata, field: RelationField, id: number): Promise<number[]> {
    const row = await app.db.query(owner.uid).findOne({ where: { id }, select: ['id'], populate: { [field.name]: { select: ['id'] } } });
    const value = row?.[field.name];
    return (Array.isArray(value) ? value : value ? [value] : []).map((item) => (item as Entity).id);
  }

  return {
    async findAvailable(ctx: Koa.Context) {
      const query = ctx.query as Record<string, unknown>;
      const { page, pageSize } = relationPage(query);
      const idsToOmit = idList(query, 'idsToOmit');
      const idsToInclude = idList(query, 'idsToInclude');
      const entityId = query.entityId === undefined || query.entityId === '' ? null : toEntryId(query.entityId);
      const picked = await pick(ctx);
      if (!picked) return;
      const { owner, field, target, targetAccess, fields } = picked;
      if (!targetAccess.can('read')) throw new ForbiddenError();
      const clauses: unknown[] = [];
      if (entityId !== null) {
        await checkOwner(ctx, owner, entityId);
        const current = (await linkedIds(owner, field, entityId)).filter((id) => !idsToInclude.includes(id));
        if (current.length > 0) clauses.push({ id: { $notIn: current } });
      }
      if (idsToOmit.length > 0) clauses.push({ id: { $notIn: idsToOmit } });
      const mainField = fields[1] ?? 'id';
      if (typeof query._q === 'string' && query._q !== '') {
        const operator = typeof query._filter === 'string' && WHERE_OPERATORS.has(query._filter) ? query._filter : '$containsi';
        clauses.push({ [mainField]: { [operator]: query._q } });
      }
      const filters = withConditions(targetAccess, 'read', clauses.length === 0 ? undefined : { $and: clauses });
      // A localized target lists the request's locale (the panel sends the entry's), else the default one, as Strapi.
      const locale = typeof query.locale === 'string' && query.locale !== '' ? query.locale : undefined;
      ctx.body = await app.entityService.findPage(target.uid, { fields, sort: mainField, filters, page, pageSize, locale });
    },

    async findExisting(ctx: Koa.Context) {
      const { page, pageSize } = relationPage(ctx.query as Record<string, unknown>);
      const picked = await pick(ctx);
      if (!picked) return;
      const { owner, field, target, targetAccess, fields } = picked;
      const id = toEntryId(ctx.params.id);
      if (id === null) throw new NotFoundError();
      await checkOwner(ctx, owner, id);
      const linked = await linkedIds(owner, field, id);
      const readable = async (ids: number[]): Promise<Map<number, Entity>> => {
        if (ids.length === 0 || !targetAccess.can('read')) return new Map();
        const filters = withConditions(targetAccess, 'read', { id: { $in: ids } });
        const rows = (await app.entityService.findMany(target.uid, { filters, fields, locale: 'all' })) as Entity[];
        return new Map(rows.map((row) => [row.id, row]));
      };
      if (!field.toMany) {
        const found = await readable(linked);
        ctx.body = { data: linked.length === 0 ? null : found.get(linked[0]) ?? { id: linked[0] } };
        return;
      }
      const total = linked.length;
      const pageIds = [...linked].reverse().slice((page - 1) * pageSize, page * pageSize);
      const found = await readable(pageIds);
      ctx.body = {
        results: pageIds.map((entryId) => found.get(entryId) ?? { id: entryId }),
        pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total },
      };
    },
  };
}

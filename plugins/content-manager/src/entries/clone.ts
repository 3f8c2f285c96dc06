/**
 * `clone/:sourceId` and `auto-clone/:sourceId` (Strapi 4.26.2): a new draft made of the source entry — its fields,
 * its components (copied), its relations (the same targets) — with the panel's body on top (its fields replace the
 * source's; its relations' `connect`/`disconnect` change the copied lists). `auto-clone` sends no body, so Strapi
 * refuses it for a type whose copy could not be saved as it is: a uid or unique field, or a one-to-one/one-to-many
 * relation whose other side would lose its entry (`prohibitedFields`, with their paths).
 */
import type Koa from 'koa';
import { requestBody, type App } from '@tessera/core';
import type { Entity, EntityMetadata, Metadata } from '@tessera/database';
import { ForbiddenError } from '@tessera/errors';
import { signedInAdmin } from './access';
import { entryId, target } from './collection-types';
import { Entries } from './entries';
import { bodyObject, isRecord, writableInput, type WriteBody } from './input';
import { isVisible, linksOf, type Populate } from './populate';

type Prohibited = [string[], 'unique' | 'relation'];

/** Strapi's `getProhibitedCloningFields`. */
export function prohibitedCloningFields(entity: EntityMetadata, metadata: Metadata, displayName: (uid: string) => string, path: string[] = []): Prohibited[] {
  const found: Prohibited[] = [];
  // Every attribute in schema order (`attributeOrder` is the content API's, without the private ones).
  for (const name of Object.keys(entity.attributes)) {
    const column = entity.columns.get(name);
    const link = entity.links.get(name);
    if (column && !column.system && (column.type === 'uid' || column.attribute.unique)) found.push([[...path, name], 'unique']);
    if (link?.kind === 'relation' && isVisible(link) && (link.relation === 'oneToOne' || link.relation === 'oneToMany') && link.inverseName !== null) {
      found.push([[...path, name], 'relation']);
    }
    if (link?.kind === 'component') {
      const component = metadata.get(link.components[0]);
      if (component) found.push(...prohibitedCloningFields(component, metadata, displayName, [...path, name]));
    }
    if (link?.kind === 'dynamiczone') {
      for (const uid of link.components) {
        const component = metadata.get(uid);
        if (component) found.push(...prohibitedCloningFields(component, metadata, displayName, [...path, name, displayName(uid)]));
      }
    }
  }
  return found;
}

/** Relations and media as ids, components deep: what a copy is written from. */
function clonePopulate(entity: EntityMetadata, metadata: Metadata): Populate {
  const populate: Populate = {};
  for (const [name, link] of linksOf(entity)) {
    if (link.kind === 'relation' || link.kind === 'media') populate[name] = { fields: ['id'] };
    else if (link.kind === 'component') {
      const component = metadata.get(link.components[0]);
      populate[name] = component ? { populate: clonePopulate(component, metadata) } : true;
    } else {
      const on: Record<string, unknown> = {};
      for (const uid of link.components) {
        const component = metadata.get(uid);
        if (component) on[uid] = { populate: clonePopulate(component, metadata) };
      }
      populate[name] = { on };
    }
  }
  return populate;
}

const ids = (value: unknown): number[] => (Array.isArray(value) ? value : value ? [value] : []).map((item) => (item as Entity).id);

/** The source as write data: fields, components without their ids, relations and media as target ids. */
function copyOf(entry: Record<string, unknown>, entity: EntityMetadata, metadata: Metadata): WriteBody {
  const data: WriteBody = {};
  for (const column of entity.columns.values()) if (!column.system && column.name in entry) data[column.name] = entry[column.name];
  for (const [name, link] of linksOf(entity)) {
    const value = entry[name];
    if (value === undefined) continue;
    if (link.kind === 'relation' && link.inverseName !== null && (link.relation === 'oneToOne' || link.relation === 'oneToMany')) continue;
    if (link.kind === 'relation') data[name] = link.toMany ? ids(value) : ids(value)[0] ?? null;
    else if (link.kind === 'media') data[name] = link.multiple ? ids(value) : ids(value)[0] ?? null;
    else {
      const copy = (item: Record<string, unknown>): WriteBody => {
        const uid = link.kind === 'component' ? link.components[0] : String(item.__component);
        const component = metadata.get(uid);
        const copied = component ? copyOf(item, component, metadata) : {};
        return link.kind === 'dynamiczone' ? { __component: uid, ...copied } : copied;
      };
      data[name] = value === null ? null : Array.isArray(value) ? value.map((item) => copy(item as Record<string, unknown>)) : copy(value as Record<string, unknown>);
    }
  }
  return data;
}

/**
 * Strapi's `excludeNotCreatableFields`: what the admin may not create is not copied either — a field becomes null,
 * a relation empty (components field by field).
 */
function onlyCreatable(copy: WriteBody, entity: EntityMetadata, metadata: Metadata, fields: string[] | null, prefix = ''): WriteBody {
  if (fields === null) return copy;
  const permitted = (name: string): boolean => fields.some((field) => field === prefix + name || field.startsWith(`${prefix}${name}.`));
  const out: WriteBody = { ...copy };
  for (const key of Object.keys(copy)) {
    const link = entity.links.get(key);
    const component = link?.kind === 'component' ? metadata.get(link.components[0]) : undefined;
    if (component && isRecord(copy[key])) out[key] = onlyCreatable(copy[key] as WriteBody, component, metadata, fields, `${prefix}${key}.`);
    else if (!permitted(key)) out[key] = link?.kind === 'relation' && link.toMany ? [] : null;
  }
  return out;
}

/** The body on the copy: fields replace; a relation's `connect`/`disconnect` edit the copied list. */
function withBody(copy: WriteBody, body: WriteBody, entity: EntityMetadata): WriteBody {
  const data: WriteBody = { ...copy };
  for (const [key, value] of Object.entries(body)) {
    const link = entity.links.get(key);
    if (link?.kind === 'relation' && isRecord(value) && ('connect' in value || 'disconnect' in value)) {
      const current = Array.isArray(data[key]) ? (data[key] as number[]) : typeof data[key] === 'number' ? [data[key] as number] : [];
      const removed = new Set(ids(value.disconnect));
      const added = ids(value.connect);
      const next = [...current.filter((id) => !removed.has(id) && !added.includes(id)), ...added];
      data[key] = link.toMany ? next : next[next.length - 1] ?? null;
    } else {
      data[key] = value;
    }
  }
  return data;
}

export function cloning(app: App) {
  const entries = new Entries(app);

  async function clone(ctx: Koa.Context, body: unknown): Promise<void> {
    const { entity, access } = target(app, ctx, 'create');
    const source = await entries.existing(entity, entryId(ctx, 'sourceId'), clonePopulate(entity, app.db.metadata));
    // Strapi asks only for the create permission; a copy reads the source, so Tessera asks that the admin may read it.
    if (!access.can('read') || !(await entries.matches(entity, source.id, access.where('read')))) throw new ForbiddenError();
    const input = writableInput(bodyObject(body), entity, app.db.metadata, entries.hidden, access.fields('create'));
    const copy = onlyCreatable(copyOf(source, entity, app.db.metadata), entity, app.db.metadata, access.fields('create'));
    const data = withBody(copy, input, entity);
    const created = await entries.create(entity, data, signedInAdmin(ctx).id);
    ctx.body = await entries.answer(entity, created, access.fields('read'));
  }

  return {
    clone: (ctx: Koa.Context) => clone(ctx, requestBody(ctx)),
    async autoClone(ctx: Koa.Context) {
      const { entity } = target(app, ctx, 'create');
      const prohibitedFields = prohibitedCloningFields(entity, app.db.metadata, (uid) => app.components.find(uid)?.info.displayName ?? uid);
      if (prohibitedFields.length > 0) {
        ctx.status = 400;
        ctx.body = {
          data: null,
          error: {
            status: 400,
            name: 'BadRequestError',
            message: 'Entity could not be cloned as it has unique and/or relational fields. Please edit those fields manually and save to complete the cloning.',
            details: { prohibitedFields },
          },
        };
        return;
      }
      await clone(ctx, {});
    },
  };
}

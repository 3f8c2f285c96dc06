/**
 * Content events: one per committed write, announced after commit and never
 * for a rolled-back one (`app.hooks.on('entry.create', (event) => …)`).
 * Webhooks and caches subscribe to these. The entry is stripped of private
 * attributes at every level, so a subscriber cannot leak what a response
 * would not show.
 */
import type { Entity, EntityMetadata, Metadata } from '@tessera/database';
import { FILE_UID } from '@tessera/database';
import type { App } from '../app-type';

export const CONTENT_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish'] as const;

export type ContentEventName = (typeof CONTENT_EVENTS)[number];

export interface ContentEvent {
  event: ContentEventName;
  /** `api::article.article` */
  uid: string;
  /** The type's singular name, as Strapi's webhooks call it. */
  model: string;
  entry: Record<string, unknown>;
}

export function contentEvent(name: ContentEventName, uid: string, entry: Entity, metadata: Metadata): ContentEvent {
  let shown: Record<string, unknown> | undefined;
  return {
    event: name,
    uid,
    model: metadata.get(uid)?.singularName ?? uid,
    // Cut on first read (enumerable, so spreads and JSON see it): most writes have no subscriber that looks.
    get entry() {
      return (shown ??= publicEntry(uid, entry, metadata));
    },
    set entry(value: Record<string, unknown>) {
      shown = value;
    },
  };
}

/** A committed write, told to its subscribers; a failing subscriber is logged, the write stays. */
export async function announceContentEvent(app: App, name: ContentEventName, uid: string, entry: Entity): Promise<void> {
  if (!app.hooks.has(name)) return;
  try {
    await app.hooks.call(name, contentEvent(name, uid, entry, app.db.metadata));
  } catch (error) {
    app.log.error(`a subscriber of ${name} (${uid}) failed`, error);
  }
}

/** An entry of `uid` without private attributes, at every level (webhook payloads use it too). */
export function publicEntry(uid: string, entry: Entity, metadata: Metadata): Record<string, unknown> {
  const entity = metadata.get(uid);
  return entity ? withoutPrivate(entry, entity, metadata) : { ...entry };
}

function withoutPrivate(entry: Entity, entity: EntityMetadata, metadata: Metadata): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(entry)) {
    const column = entity.columns.get(name);
    const link = entity.links.get(name);
    if (column?.private || link?.private) continue;
    copy[name] = link && value !== null && typeof value === 'object' ? linked(value, link, metadata) : value;
  }
  return copy;
}

function linked(value: object, link: NonNullable<ReturnType<EntityMetadata['links']['get']>>, metadata: Metadata): unknown {
  const targetOf = (item: Record<string, unknown>): EntityMetadata | undefined => {
    if (link.kind === 'relation') return metadata.get(link.target);
    if (link.kind === 'media') return metadata.get(FILE_UID);
    return metadata.get(link.kind === 'dynamiczone' ? String(item.__component) : link.components[0]);
  };
  const strip = (item: unknown) => {
    if (item === null || typeof item !== 'object' || !('id' in item)) return item;
    const target = targetOf(item as Record<string, unknown>);
    return target ? withoutPrivate(item as Entity, target, metadata) : item;
  };
  return Array.isArray(value) ? value.map(strip) : strip(value);
}

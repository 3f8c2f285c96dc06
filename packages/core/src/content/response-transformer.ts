/**
 * Entities → the Strapi v4 REST shape. An entry is `{ id, attributes }`;
 * populated relations and media are wrapped in `{ data }` (null or a list
 * when empty); components stay inline with their `id`; a relation count is
 * `{ data: { attributes: { count } } }`. The walk follows the metadata, so
 * only links are inspected per key.
 *
 * The reader hands one object per related entry per populate level, shared by
 * every parent that links it; each such object is built once per call and the
 * result shared the same way (a per-call memo keyed by the object, which
 * stands for (type, id, populate subtree)). Building is linear in distinct
 * entries; the JSON still repeats a shared entry under each parent, which the
 * entry budget (`maxPopulatedEntries`, counted per appearance) bounds.
 * Callers that change one appearance of a shared entry in place change them all.
 */
import type { ComponentField, Entity, EntityMetadata, Metadata } from '@tessera/database';
import { FILE_UID } from '@tessera/database';

export interface RestEntry {
  id: number;
  attributes: Record<string, unknown>;
}

export class ResponseTransformer {
  constructor(private readonly metadata: Metadata) {}

  entry(entity: Entity, meta: EntityMetadata): RestEntry {
    return this.build(entity, meta, new Map());
  }

  entries(entities: Entity[], meta: EntityMetadata): RestEntry[] {
    const built = new Map<Entity, RestEntry>();
    return entities.map((entity) => this.build(entity, meta, built));
  }

  private build(entity: Entity, meta: EntityMetadata, built: Map<Entity, RestEntry>): RestEntry {
    const { id, ...attributes } = entity;
    for (const [name, link] of meta.links) {
      if (!(name in attributes)) continue;
      const value = attributes[name];
      if (link.kind === 'relation') attributes[name] = this.relation(value, this.metadata.get(link.target), built);
      else if (link.kind === 'media') attributes[name] = this.relation(value, this.metadata.get(FILE_UID), built);
      else attributes[name] = this.components(value, link, built);
    }
    return { id, attributes };
  }

  private relation(value: unknown, target: EntityMetadata | undefined, built: Map<Entity, RestEntry>): { data: unknown } {
    if (value === null || value === undefined) return { data: null };
    if (Array.isArray(value)) return { data: value.map((item) => this.related(item as Entity, target, built)) };
    if (isCount(value)) return { data: { attributes: { count: value.count } } };
    return { data: this.related(value as Entity, target, built) };
  }

  /** A related entry, built the first time its object is met in this call and shared afterwards. */
  private related(entity: Entity, target: EntityMetadata | undefined, built: Map<Entity, RestEntry>): RestEntry {
    const done = built.get(entity);
    if (done) return done;
    let entry: RestEntry;
    if (target) entry = this.build(entity, target, built);
    else {
      const { id, ...attributes } = entity;
      entry = { id, attributes };
    }
    built.set(entity, entry);
    return entry;
  }

  /** Components keep their id inline; their own links are transformed too. */
  private components(value: unknown, link: ComponentField, built: Map<Entity, RestEntry>): unknown {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) return value.map((item) => this.component(item as Entity, link, built));
    return this.component(value as Entity, link, built);
  }

  private component(entity: Entity & { __component?: unknown }, link: ComponentField, built: Map<Entity, RestEntry>): Record<string, unknown> {
    const uid = link.kind === 'dynamiczone' ? String(entity.__component) : link.components[0];
    const meta = this.metadata.get(uid);
    if (!meta) return entity;
    const { id, attributes } = this.build(entity, meta, built);
    return { id, ...attributes };
  }
}

function isCount(value: unknown): value is { count: number } {
  return typeof value === 'object' && value !== null && !('id' in value) && 'count' in value;
}

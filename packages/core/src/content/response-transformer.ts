/**
 * Entities → the Strapi v4 REST shape. An entry is `{ id, attributes }`;
 * populated relations and media are wrapped in `{ data }` (null or a list
 * when empty); components stay inline with their `id`; a relation count is
 * `{ data: { attributes: { count } } }`. The walk follows the metadata, so
 * only links are inspected per key.
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
    const { id, ...attributes } = entity;
    for (const [name, link] of meta.links) {
      if (!(name in attributes)) continue;
      const value = attributes[name];
      if (link.kind === 'relation') attributes[name] = this.relation(value, this.metadata.get(link.target));
      else if (link.kind === 'media') attributes[name] = this.relation(value, this.metadata.get(FILE_UID));
      else attributes[name] = this.components(value, link);
    }
    return { id, attributes };
  }

  entries(entities: Entity[], meta: EntityMetadata): RestEntry[] {
    return entities.map((entity) => this.entry(entity, meta));
  }

  private relation(value: unknown, target: EntityMetadata | undefined): { data: unknown } {
    if (value === null || value === undefined) return { data: null };
    if (Array.isArray(value)) return { data: value.map((item) => this.related(item as Entity, target)) };
    if (isCount(value)) return { data: { attributes: { count: value.count } } };
    return { data: this.related(value as Entity, target) };
  }

  private related(entity: Entity, target: EntityMetadata | undefined): RestEntry {
    if (!target) {
      const { id, ...attributes } = entity;
      return { id, attributes };
    }
    return this.entry(entity, target);
  }

  /** Components keep their id inline; their own links are transformed too. */
  private components(value: unknown, link: ComponentField): unknown {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) return value.map((item) => this.component(item as Entity, link));
    return this.component(value as Entity, link);
  }

  private component(entity: Entity & { __component?: unknown }, link: ComponentField): Record<string, unknown> {
    const uid = link.kind === 'dynamiczone' ? String(entity.__component) : link.components[0];
    const meta = this.metadata.get(uid);
    if (!meta) return entity;
    const { id, attributes } = this.entry(entity, meta);
    return { id, ...attributes };
  }
}

function isCount(value: unknown): value is { count: number } {
  return typeof value === 'object' && value !== null && !('id' in value) && 'count' in value;
}

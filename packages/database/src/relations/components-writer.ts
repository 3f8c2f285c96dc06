/**
 * Components and dynamic zones, written as Strapi v4 stores them: a row in
 * the component's own table plus a row in the parent's `<table>_components`
 * (entity_id, component_id, component_type, field, order). A value sent on
 * update replaces the old one, as Strapi 4.26.2's entity service does it: an
 * item carrying the id of a component the field holds updates that row in
 * place (its relations take `{ connect, disconnect }` as changes, which is
 * how the panel sends them: recreated, the component lost every relation the
 * edit did not touch); the others are inserted, and the old components the
 * value no longer names are deleted with whatever they own. Unlike Strapi, an
 * id the field does not hold (another entry's component) is not taken over:
 * the item is inserted as new.
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { ComponentField, EntityMetadata, Metadata } from '../metadata/metadata';
import { EntityWriter } from '../sql/writer';
import { issue } from './relation-input';
import { insertRows, whereIn } from './link-sql';

export interface ComponentValue {
  uid: string;
  entity: EntityMetadata;
  /** Attribute values, `__component` and `id` removed. */
  data: Record<string, unknown>;
  /** The id the caller gave: the component to update in place when the field holds it. */
  id?: number;
}

/** Writes the links (relations, media, nested components) of a component row: a new one (`create`) or one kept (`update`). */
export type NestedLinksWriter = (entity: EntityMetadata, id: number, data: Record<string, unknown>, mode: 'create' | 'update') => Promise<void>;

export class ComponentsWriter {
  private readonly rows: EntityWriter;

  constructor(
    private readonly connection: Connection,
    private readonly metadata: Metadata,
  ) {
    this.rows = new EntityWriter(connection);
  }

  /** Checks the shape of a component or dynamic-zone value; returns the items to write. */
  prepare(field: ComponentField, value: unknown): ComponentValue[] {
    if (value === null || value === undefined) return [];
    const issues: ValidationIssue[] = [];
    let items: unknown[];
    if (field.repeatable) {
      if (!Array.isArray(value)) throw ValidationError.forField([field.name], `${field.name} must be an array`);
      items = value;
    } else {
      items = [value];
    }
    const prepared: ComponentValue[] = [];
    items.forEach((item, index) => {
      const path = field.repeatable ? [field.name, String(index)] : [field.name];
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        issues.push(issue(path, `${field.name} items must be objects`));
        return;
      }
      const { __component, ...data } = item as Record<string, unknown>;
      const uid = field.kind === 'dynamiczone' ? __component : field.components[0];
      if (typeof uid !== 'string' || !field.components.includes(uid)) {
        issues.push(issue([...path, '__component'], `${field.name}: unknown component ${JSON.stringify(uid ?? null)}; expected one of ${field.components.join(', ')}`));
        return;
      }
      const entity = this.metadata.get(uid);
      if (!entity) {
        issues.push(issue([...path, '__component'], `${field.name}: component ${uid} is not registered`));
        return;
      }
      const { id } = data;
      delete data.id;
      const given = typeof id === 'number' || (typeof id === 'string' && /^\d{1,15}$/.test(id)) ? Number(id) : undefined;
      prepared.push({ uid, entity, data, ...(given !== undefined && Number.isSafeInteger(given) ? { id: given } : {}) });
    });
    if (issues.length > 0) throw ValidationError.fromIssues(issues);
    return prepared;
  }

  async write(owner: EntityMetadata, ownerId: number, field: ComponentField, items: ComponentValue[], mode: 'create' | 'update', nested: NestedLinksWriter): Promise<void> {
    const joinTable = owner.componentJoinTable!;
    // What the field holds now, by `type:id`; each kept once (an id named twice is inserted the second time).
    const held = mode === 'update' ? await this.heldBy(owner, ownerId, field.name) : new Map<string, HeldComponent>();
    const joinRows: Array<Record<string, unknown>> = [];
    for (const [index, item] of items.entries()) {
      const { columns, links } = split(item.entity, item.data);
      const key = item.id === undefined ? undefined : `${item.uid}:${item.id}`;
      let componentId: number;
      if (key !== undefined && held.delete(key)) {
        componentId = item.id!;
        if (Object.keys(columns).length > 0) await this.rows.update(item.entity, componentId, columns);
        await nested(item.entity, componentId, links, 'update');
      } else {
        componentId = (await this.rows.insert(item.entity, columns)).id;
        await nested(item.entity, componentId, links, 'create');
      }
      joinRows.push({ entity_id: ownerId, component_id: componentId, component_type: item.uid, field: field.name, order: index + 1 });
    }
    if (mode === 'update') {
      const remove = this.connection.knex(joinTable).delete().where('entity_id', ownerId).where('field', field.name);
      await this.connection.run(remove);
      await this.deleteComponents(byType(held.values()));
    }
    await insertRows(this.connection, joinTable, joinRows);
  }

  /** The components `field` of the owner's entry holds, by `type:id`. */
  private async heldBy(owner: EntityMetadata, ownerId: number, field: string): Promise<Map<string, HeldComponent>> {
    const select = this.connection.knex.from(owner.componentJoinTable!).select('component_id', 'component_type').where('entity_id', ownerId).where('field', field);
    const held = new Map<string, HeldComponent>();
    for (const row of await this.connection.all(select)) {
      const component = { type: String(row.component_type), id: Number(row.component_id) };
      held.set(`${component.type}:${component.id}`, component);
    }
    return held;
  }

  /** Deletes components (ids by type) whose join rows are gone, with whatever they own. */
  private async deleteComponents(ids: Map<string, number[]>, onDelete = this.onDelete): Promise<void> {
    for (const [type, list] of ids) {
      const entity = this.metadata.get(type);
      if (!entity) continue;
      await onDelete?.(entity, list);
      await this.connection.run(whereIn(this.connection, this.connection.knex(entity.tableName).delete(), 'id', list));
    }
  }

  /** Called for each deleted batch of components so their own links go too (set by LinksWriter). */
  onDelete: ((entity: EntityMetadata, ids: number[]) => Promise<void>) | undefined;

  /** Deletes the components of `ownerIds` (all fields, or only `fields`), depth first. */
  async deleteFor(owner: EntityMetadata, ownerIds: number[], fields?: string[], onDelete = this.onDelete): Promise<void> {
    const joinTable = owner.componentJoinTable;
    if (!joinTable || ownerIds.length === 0) return;
    const knex = this.connection.knex;
    const select = knex.from(joinTable).select('component_id', 'component_type');
    whereIn(this.connection, select, 'entity_id', ownerIds);
    if (fields) whereInText(select, 'field', fields);
    const held = byType((await this.connection.all(select)).map((row) => ({ type: String(row.component_type), id: Number(row.component_id) })));
    const remove = knex(joinTable).delete();
    whereIn(this.connection, remove, 'entity_id', ownerIds);
    if (fields) whereInText(remove, 'field', fields);
    await this.connection.run(remove);
    await this.deleteComponents(held, onDelete);
  }
}

/** A component row, named by its type and id. */
interface HeldComponent {
  type: string;
  id: number;
}

/** Component ids grouped by type. */
function byType(components: Iterable<HeldComponent>): Map<string, number[]> {
  const grouped = new Map<string, number[]>();
  for (const { type, id } of components) {
    const list = grouped.get(type);
    if (list) list.push(id);
    else grouped.set(type, [id]);
  }
  return grouped;
}

function whereInText(qb: ReturnType<Connection['knex']['from']>, column: string, values: string[]): void {
  if (values.length === 1) qb.where(column, values[0]);
  else qb.whereIn(column, values);
}

function split(entity: EntityMetadata, data: Record<string, unknown>): { columns: Record<string, unknown>; links: Record<string, unknown> } {
  const columns: Record<string, unknown> = {};
  const links: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    if (entity.links.has(name)) links[name] = value;
    else if (entity.columns.has(name) && !entity.columns.get(name)!.system) columns[name] = value;
  }
  return { columns, links };
}

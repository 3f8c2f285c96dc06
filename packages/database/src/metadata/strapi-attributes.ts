/**
 * `strapi.db.metadata.get(uid).attributes` in Strapi v4's shape: what Strapi
 * code reads to find a column (`attributes.title.columnName`) or a join table
 * (`attributes.tags.joinTable.name`, its `joinColumn.name`, order columns)
 * before it queries `strapi.db.connection` itself. Built once per entity from
 * Tessera's own metadata; the shapes are Strapi 4.26.2's (its
 * `@strapi/database` metadata, recorded in test/data/strapi-4.26.2-metadata.json).
 */
import type { ColumnField, ComponentField, EntityMetadata, LinkField, RelationField, StrapiAttribute, StrapiJoinTable } from './entity-metadata';
import { FILE_UID } from './media';
import { morphToOneAttribute } from './morph-to-one';

const ADMIN_USER_COLUMNS: Record<string, string> = { createdBy: 'created_by_id', updatedBy: 'updated_by_id' };

export function strapiAttributes(entity: EntityMetadata): Record<string, StrapiAttribute> {
  const attributes: Record<string, StrapiAttribute> = {};
  for (const field of entity.allColumns) if (field.morphOf === undefined) attributes[field.name] = columnAttribute(field);
  for (const field of entity.links.values()) attributes[field.name] = linkAttribute(entity, field);
  for (const field of entity.morphToOne.values()) attributes[field.name] = morphToOneAttribute(field);
  return attributes;
}

function columnAttribute(field: ColumnField): StrapiAttribute {
  if (ADMIN_USER_COLUMNS[field.name] === field.column) {
    return {
      type: 'relation',
      relation: 'oneToOne',
      target: 'admin::user',
      configurable: false,
      writable: false,
      visible: false,
      useJoinTable: false,
      private: true,
      owner: true,
      joinColumn: { name: field.column, referencedColumn: 'id', referencedTable: 'admin_users' },
    };
  }
  return { ...field.attribute, type: field.type, columnName: field.column };
}

function linkAttribute(entity: EntityMetadata, field: LinkField): StrapiAttribute {
  if (field.kind === 'relation') return relationAttribute(field);
  if (field.kind === 'media') return { type: 'relation', relation: field.multiple ? 'morphMany' : 'morphOne', target: FILE_UID, morphBy: 'related' };
  return componentAttribute(entity, field);
}

function relationAttribute(field: RelationField): StrapiAttribute {
  const join = field.joinTable;
  const { joinColumn, inverseJoinColumn, orderColumn, inverseOrderColumn } = join;
  const joinTable: StrapiJoinTable = {
    name: join.name,
    joinColumn: { name: joinColumn, referencedColumn: 'id' },
    inverseJoinColumn: { name: inverseJoinColumn, referencedColumn: 'id' },
    // The owner's order, from either side.
    pivotColumns: field.owner ? [joinColumn, inverseJoinColumn] : [inverseJoinColumn, joinColumn],
  };
  if (orderColumn) {
    joinTable.orderColumnName = orderColumn;
    joinTable.orderBy = { [orderColumn]: 'asc' };
  }
  if (field.owner && inverseOrderColumn) joinTable.inverseOrderColumnName = inverseOrderColumn;
  return { ...field.attribute, type: 'relation', relation: field.relation, target: field.target, joinTable };
}

function componentAttribute(entity: EntityMetadata, field: ComponentField): StrapiAttribute {
  const joinTable: StrapiJoinTable = {
    name: entity.componentJoinTable ?? `${entity.tableName}_components`,
    joinColumn: { name: 'entity_id', referencedColumn: 'id' },
    inverseJoinColumn: { name: 'component_id', referencedColumn: 'id' },
    on: { field: field.name },
    orderColumnName: 'order',
    orderBy: { order: 'asc' },
    pivotColumns: ['entity_id', 'component_id', 'field', 'component_type'],
  };
  if (field.kind === 'dynamiczone') return { type: 'relation', relation: 'morphToMany', components: field.components, joinTable };
  const [component] = field.components;
  return { type: 'relation', repeatable: field.repeatable, component, relation: field.repeatable ? 'oneToMany' : 'oneToOne', target: component, joinTable };
}

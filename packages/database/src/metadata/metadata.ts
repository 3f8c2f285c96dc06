/**
 * Metadata: the content model translated once, at boot, into the Strapi v4
 * table layout — which table, which column, which join table and order
 * columns. Every query is planned from this, never from raw schemas.
 */
import { ConfigurationError } from '@tessera/errors';
import type { Attribute, Component, ContentType, RelationAttribute, RelationKind, ScalarAttribute } from '../model/types';
import { isScalarAttribute } from '../model/types';
import { columnName, componentJoinTableName, joinTableName, snakeCase } from '../model/naming';
import type { ColumnField, ComponentField, EntityMetadata, JoinTable, LinkField, MediaField, Metadata, RelationField } from './entity-metadata';
import { applyIndexOptions } from './search-options';
import { strapiAttributes } from './strapi-attributes';
import { addMorphToOne, isMorphToOne } from './morph-to-one';

export type { ColumnField, ComponentField, EntityMetadata, JoinTable, LinkField, MediaField, Metadata, RelationField } from './entity-metadata';

const TO_MANY: ReadonlySet<RelationKind> = new Set(['oneToMany', 'manyToMany', 'manyWay', 'morphToMany', 'morphMany']);

const SYSTEM_TIMESTAMP: ScalarAttribute = { type: 'datetime' };

export function buildMetadata(contentTypes: ContentType[], components: Component[]): Metadata {
  const metadata: Metadata = new Map();
  for (const contentType of contentTypes) metadata.set(contentType.uid, entityFromContentType(contentType));
  for (const component of components) metadata.set(component.uid, entityFromComponent(component));
  const singular = (uid: string) => metadata.get(uid)?.singularName;
  const schemas = new Map<string, { collectionName: string; attributes: Record<string, Attribute> }>();
  for (const item of [...contentTypes, ...components]) schemas.set(item.uid, item);

  for (const [uid, entity] of metadata) {
    const schema = schemas.get(uid)!;
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (attribute.type !== 'relation' || isMorphToOne(attribute)) continue;
      entity.links.set(name, relationField(uid, schema.collectionName, name, attribute, singular, schemas));
    }
    // Relations were added last: restore schema order, which `populate=*` and responses follow.
    const ordered = Object.keys(schema.attributes).filter((name) => entity.links.has(name));
    entity.links = new Map(ordered.map((name) => [name, entity.links.get(name)!]));
  }
  for (const entity of metadata.values()) entity.attributes = strapiAttributes(entity);
  return metadata;
}

function entityFromContentType(contentType: ContentType): EntityMetadata {
  const draftAndPublish = contentType.options?.draftAndPublish === true;
  const entity = emptyEntity(contentType.uid, contentType.kind, contentType.collectionName, contentType.info.singularName, draftAndPublish);
  const { declared, added } = splitAddedAttributes(contentType);
  addColumn(entity, 'id', 'id', { type: 'integer' }, 'increments', true);
  addAttributes(entity, declared);
  if (!contentType.bareTable) {
    addColumn(entity, 'createdAt', 'created_at', SYSTEM_TIMESTAMP, 'datetime', true);
    addColumn(entity, 'updatedAt', 'updated_at', SYSTEM_TIMESTAMP, 'datetime', true);
  }
  if (draftAndPublish) addColumn(entity, 'publishedAt', 'published_at', SYSTEM_TIMESTAMP, 'datetime', true);
  if (!contentType.bareTable) {
    // Strapi's admin authorship columns: kept for layout compatibility, never exposed.
    addColumn(entity, 'createdBy', 'created_by_id', { type: 'integer', private: true }, 'integer', true);
    addColumn(entity, 'updatedBy', 'updated_by_id', { type: 'integer', private: true }, 'integer', true);
  }
  addAttributes(entity, added);
  applyIndexOptions(entity, contentType);
  finish(entity);
  entity.indexes.push(...(contentType.indexes ?? []).map((index) => index.attributes.map((name) => {
    const field = entity.columns.get(name);
    if (!field) throw new ConfigurationError(`an index of ${contentType.uid} names "${name}", which is not a column attribute`);
    return field.column;
  })));
  return entity;
}

/** Schema attributes, and those added after loading (which Strapi v4 lists after its timestamp attributes). */
function splitAddedAttributes(contentType: ContentType): { declared: Record<string, Attribute>; added: Record<string, Attribute> } {
  if (!contentType.schemaAttributes) return { declared: contentType.attributes, added: {} };
  const inSchema = new Set(contentType.schemaAttributes);
  const declared: Record<string, Attribute> = {};
  const added: Record<string, Attribute> = {};
  for (const [name, attribute] of Object.entries(contentType.attributes)) (inSchema.has(name) ? declared : added)[name] = attribute;
  return { declared, added };
}

function entityFromComponent(component: Component): EntityMetadata {
  const singularName = component.uid.split('.')[1] ?? component.uid;
  const entity = emptyEntity(component.uid, 'component', component.collectionName, singularName, false);
  addColumn(entity, 'id', 'id', { type: 'integer' }, 'increments', true);
  addAttributes(entity, component.attributes);
  finish(entity);
  return entity;
}

function emptyEntity(
  uid: string,
  kind: EntityMetadata['kind'],
  tableName: string,
  singularName: string,
  draftAndPublish: boolean,
): EntityMetadata {
  return {
    uid,
    kind,
    tableName,
    singularName,
    draftAndPublish,
    columns: new Map(),
    links: new Map(),
    morphToOne: new Map(),
    attributeOrder: [],
    componentJoinTable: null,
    publicColumns: [],
    allColumns: [],
    serverColumns: [],
    attributes: {},
    search: null,
    indexes: [],
  };
}

function addColumn(
  entity: EntityMetadata,
  name: string,
  column: string,
  attribute: ScalarAttribute,
  type: ColumnField['type'],
  system: boolean,
): void {
  const isPrivate = attribute.private === true || attribute.type === 'password';
  entity.columns.set(name, { name, column, type, attribute, private: isPrivate, system });
  if (!isPrivate) entity.attributeOrder.push(name);
}

function addAttributes(entity: EntityMetadata, attributes: Record<string, Attribute>): void {
  for (const [name, attribute] of Object.entries(attributes)) {
    if (isScalarAttribute(attribute)) {
      addColumn(entity, name, columnName(name), attribute, attribute.type, false);
      continue;
    }
    if (isMorphToOne(attribute)) {
      addMorphToOne(entity, name, attribute);
      continue;
    }
    const isPrivate = attribute.private === true;
    if (!isPrivate) entity.attributeOrder.push(name);
    if (attribute.type === 'media') {
      entity.links.set(name, { name, kind: 'media', multiple: attribute.multiple === true, private: isPrivate });
    } else if (attribute.type === 'component' || attribute.type === 'dynamiczone') {
      const components = attribute.type === 'component' ? [attribute.component] : attribute.components;
      const repeatable = attribute.type === 'dynamiczone' || attribute.repeatable === true;
      entity.links.set(name, { name, kind: attribute.type, components, repeatable, private: isPrivate });
      entity.componentJoinTable = componentJoinTableName(entity.tableName);
    }
    // Relations are filled in a second pass, once every entity's singular name is known.
  }
}

/** Strapi's admin authorship relations, kept as columns here (see entityFromContentType). */
const AUTHORSHIP = new Set(['createdBy', 'updatedBy']);

function finish(entity: EntityMetadata): void {
  entity.allColumns = [...entity.columns.values()];
  entity.publicColumns = entity.allColumns.filter((field) => !field.private);
  entity.serverColumns = entity.allColumns.filter((field) => !(field.system && AUTHORSHIP.has(field.name)) && field.morphOf === undefined);
}

function relationField(
  uid: string,
  collectionName: string,
  name: string,
  attribute: RelationAttribute,
  singularOf: (uid: string) => string | undefined,
  schemas: Map<string, { collectionName: string; attributes: Record<string, Attribute> }>,
): RelationField {
  const target = attribute.target ?? '';
  const targetTable = schemas.get(target)?.collectionName ?? '';
  const isPrivate = attribute.private === true;
  const toMany = TO_MANY.has(attribute.relation);
  const sourceSingular = snakeCase(singularOf(uid) ?? uid);
  const targetSingular = snakeCase(singularOf(target) ?? target);
  const selfRelation = uid === target;

  if (attribute.mappedBy) {
    // Inverse side: read the owner's join table with its columns swapped.
    const ownerSchema = schemas.get(target);
    const ownerAttribute = ownerSchema?.attributes[attribute.mappedBy];
    if (!ownerSchema || !ownerAttribute || ownerAttribute.type !== 'relation') {
      throw new ConfigurationError(`relation "${name}" of ${uid} is mappedBy "${attribute.mappedBy}", which ${target} does not declare`);
    }
    const owner = ownerJoinTable(ownerSchema.collectionName, attribute.mappedBy, ownerAttribute, targetSingular, sourceSingular, selfRelation);
    return {
      name,
      kind: 'relation',
      relation: attribute.relation,
      target,
      targetTable,
      toMany,
      owner: false,
      inverseName: attribute.mappedBy,
      joinTable: {
        name: owner.name,
        joinColumn: owner.inverseJoinColumn,
        inverseJoinColumn: owner.joinColumn,
        orderColumn: owner.inverseOrderColumn,
        inverseOrderColumn: owner.orderColumn,
      },
      private: isPrivate,
      attribute,
    };
  }

  return {
    name,
    kind: 'relation',
    relation: attribute.relation,
    target,
    targetTable,
    toMany,
    owner: true,
    inverseName: attribute.inversedBy ?? null,
    joinTable: ownerJoinTable(collectionName, name, attribute, sourceSingular, targetSingular, selfRelation),
    private: isPrivate,
    attribute,
  };
}

/** The join table as the owning side declares it (Strapi v4 naming). */
function ownerJoinTable(
  ownerCollection: string,
  attributeName: string,
  attribute: Attribute,
  ownerSingular: string,
  targetSingular: string,
  selfRelation: boolean,
): JoinTable {
  const relation = attribute.type === 'relation' ? attribute : undefined;
  const ownerToMany = relation ? TO_MANY.has(relation.relation) : false;
  const inverseToMany = relation?.inversedBy !== undefined && (relation.relation === 'manyToMany' || relation.relation === 'manyToOne');
  const inversePrefix = selfRelation ? 'inv_' : '';
  // Strapi prefixes the inverse order column only where both order columns exist
  // and would collide: a self-referencing manyToMany (a self manyToOne keeps `<x>_order`).
  const inverseOrderPrefix = selfRelation && relation?.relation === 'manyToMany' ? 'inv_' : '';
  return {
    name: joinTableName(ownerCollection, attributeName),
    joinColumn: `${ownerSingular}_id`,
    inverseJoinColumn: `${inversePrefix}${targetSingular}_id`,
    orderColumn: ownerToMany ? `${targetSingular}_order` : null,
    inverseOrderColumn: inverseToMany ? `${inverseOrderPrefix}${ownerSingular}_order` : null,
  };
}

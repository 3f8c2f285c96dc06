/**
 * The types generated per content type and component (spec's type table):
 * `<Type>`, `<Type>Entity`, `<Type>EntityResponse`,
 * `<Type>EntityResponseCollection`, `<Type>RelationResponseCollection`,
 * `<Type>FiltersInput`, `<Type>Input`; enums, a union per dynamic zone, and
 * `GenericMorph`, the union of every generated type (what polymorphic
 * relations such as `UploadFile.related` answer).
 */
import { enumType, inputObjectType, list, nonNull, objectType, scalarType, unionType, arg } from 'nexus';
import { GraphQLError } from 'graphql';
import { linkTarget, type Attribute, type ScalarAttribute } from '@tessera/database';
import { dynamicZoneTypeName, enumTypeName, enumValueName, names } from '../naming';
import { isToMany, type GraphqlAttribute, type GraphqlModel, type SchemaModel } from '../model';
import { SCALAR_FILTERS } from './shared-types';
import { literalValue } from './scalars';
import type { FieldResolvers } from '../resolve/field-resolvers';
import { sourceOnly } from '../execute/source-only';

const FILE_TYPE = 'UploadFile';
export const GENERIC_MORPH = 'GenericMorph';

/** Scalar attribute type → GraphQL scalar. */
const SCALARS: Record<string, string> = {
  string: 'String',
  text: 'String',
  richtext: 'String',
  email: 'String',
  password: 'String',
  uid: 'String',
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
  boolean: 'Boolean',
  json: 'JSON',
};

export function buildModelTypes(schemaModel: SchemaModel, resolvers: FieldResolvers): unknown[] {
  const types: unknown[] = [];
  for (const model of schemaModel.contentTypes) {
    types.push(...enums(model), objectTypeOf(model, schemaModel, resolvers), ...entityTypes(model), filtersInput(model, schemaModel), input(model, schemaModel));
    types.push(...dynamicZones(model, schemaModel));
  }
  for (const model of schemaModel.components) {
    types.push(...enums(model), objectTypeOf(model, schemaModel, resolvers), filtersInput(model, schemaModel), input(model, schemaModel));
    types.push(...dynamicZones(model, schemaModel));
  }
  types.push(...genericMorph(schemaModel));
  return types;
}

/** Strapi's `GenericMorph`: components and content types, told apart by the `__type` (uid) each value carries. */
function genericMorph(schemaModel: SchemaModel): unknown[] {
  const members = [...schemaModel.components, ...schemaModel.contentTypes];
  if (members.length === 0) return [];
  return [
    unionType({
      name: GENERIC_MORPH,
      definition(t) {
        t.members(...members.map((member) => member.typeName));
      },
      resolveType: (value) => {
        const uid = (value as { __type?: unknown }).__type;
        return (typeof uid === 'string' ? schemaModel.get(uid)?.typeName : undefined) ?? null;
      },
    }),
  ];
}

function scalarOf(model: GraphqlModel, entry: GraphqlAttribute): string {
  const attribute = entry.attribute as ScalarAttribute;
  if (attribute.type === 'enumeration') return enumTypeName(model.typeName, entry.name, (attribute as { enumName?: unknown }).enumName);
  return SCALARS[attribute.type] ?? 'String';
}

function isScalar(attribute: Attribute): attribute is ScalarAttribute {
  return SCALARS[attribute.type] !== undefined || attribute.type === 'enumeration';
}

function enums(model: GraphqlModel): unknown[] {
  return model.attributes
    .filter((entry) => entry.attribute.type === 'enumeration')
    .map((entry) =>
      enumType({
        name: scalarOf(model, entry),
        members: ((entry.attribute as ScalarAttribute).enum ?? []).map((value) => ({ name: enumValueName(value), value })),
      }),
    );
}

function targetTypeName(schemaModel: SchemaModel, attribute: Attribute): string {
  if (attribute.type === 'media') return FILE_TYPE;
  if (attribute.type === 'relation') return schemaModel.require(attribute.target!).typeName;
  if (attribute.type === 'component') return schemaModel.require(attribute.component).typeName;
  throw new Error(`no target type for ${attribute.type}`);
}

/** Arguments of a to-many relation (and of repeatable components and multiple media). */
function collectionArgs(schemaModel: SchemaModel, targetType: string, targetUid: string | undefined) {
  const args: Record<string, unknown> = {
    filters: arg({ type: names.filters(targetType) }),
    pagination: arg({ type: 'PaginationArg', default: {} }),
    sort: arg({ type: list('String'), default: [] }),
  };
  const target = targetUid ? schemaModel.get(targetUid) : undefined;
  if (target?.draftAndPublish) args.publicationState = arg({ type: 'PublicationState', default: 'live' });
  return args;
}

function objectTypeOf(model: GraphqlModel, schemaModel: SchemaModel, resolvers: FieldResolvers) {
  return objectType({
    name: model.typeName,
    definition(t) {
      if (model.kind === 'component') t.nonNull.id('id');
      for (const entry of model.attributes) {
        if (!entry.output) continue;
        const attribute = entry.attribute;
        if (isScalar(attribute)) {
          const type = scalarOf(model, entry);
          if (attribute.required) t.nonNull.field(entry.name, { type });
          else t.field(entry.name, { type });
          continue;
        }
        if (attribute.type === 'relation' || attribute.type === 'media') {
          const target = targetTypeName(schemaModel, attribute);
          const targetUid = linkTarget(attribute);
          const resolve = resolvers.link(model, entry);
          if (isToMany(attribute)) {
            t.field(entry.name, { type: names.relationResponseCollection(target), args: collectionArgs(schemaModel, target, targetUid) as never, resolve });
          } else {
            t.field(entry.name, { type: names.entityResponse(target), resolve });
          }
          continue;
        }
        if (attribute.type === 'component') {
          const target = targetTypeName(schemaModel, attribute);
          const resolve = resolvers.component(model, entry);
          if (attribute.repeatable) {
            const args = { filters: arg({ type: names.filters(target) }), pagination: arg({ type: 'PaginationArg', default: {} }), sort: arg({ type: list('String'), default: [] }) };
            t.field(entry.name, { type: list(target), args, resolve });
          } else {
            t.field(entry.name, { type: target, resolve });
          }
          continue;
        }
        if (attribute.type === 'dynamiczone') {
          t.field(entry.name, { type: list(dynamicZoneTypeName(model.typeName, entry.name)), resolve: resolvers.component(model, entry) });
        }
      }
      if (model.kind !== 'component') {
        t.field('createdAt', { type: 'DateTime' });
        t.field('updatedAt', { type: 'DateTime' });
        if (model.draftAndPublish) t.field('publishedAt', { type: 'DateTime' });
      }
    },
  });
}

/** `<Type>Entity { id, attributes }` and its response wrappers; the entity object itself is the parent of both. */
function entityTypes(model: GraphqlModel): unknown[] {
  const type = model.typeName;
  const types = [
    objectType({
      name: names.entity(type),
      definition(t) {
        t.id('id', { resolve: sourceOnly((entity: { id: number }) => entity.id) });
        t.field('attributes', { type, resolve: sourceOnly((entity: unknown) => entity as never) });
      },
    }),
    objectType({
      name: names.entityResponse(type),
      definition(t) {
        t.field('data', { type: names.entity(type) });
      },
    }),
    objectType({
      name: names.relationResponseCollection(type),
      definition(t) {
        t.nonNull.field('data', { type: nonNull(list(nonNull(names.entity(type)))) });
      },
    }),
  ];
  // A single type has no list query.
  if (model.kind === 'singleType') return types;
  return [
    ...types,
    objectType({
      name: names.entityResponseCollection(type),
      definition(t) {
        t.nonNull.field('data', { type: nonNull(list(nonNull(names.entity(type)))) });
        t.nonNull.field('meta', { type: 'ResponseCollectionMeta' });
      },
    }),
  ];
}

function filtersInput(model: GraphqlModel, schemaModel: SchemaModel) {
  const name = names.filters(model.typeName);
  return inputObjectType({
    name,
    definition(t) {
      // As in Strapi: a single type's entry is the only one, so its filters have no `id`.
      if (model.kind === 'collectionType') t.field('id', { type: 'IDFilterInput' });
      for (const entry of model.attributes) {
        if (!entry.filters) continue;
        const attribute = entry.attribute;
        if (isScalar(attribute)) {
          const scalar = attribute.type === 'enumeration' ? 'String' : scalarOf(model, entry);
          t.field(entry.name, { type: SCALAR_FILTERS[scalar] ?? 'StringFilterInput' });
        } else if (attribute.type === 'relation' || attribute.type === 'component') {
          t.field(entry.name, { type: names.filters(targetTypeName(schemaModel, attribute)) });
        }
      }
      if (model.kind !== 'component') {
        t.field('createdAt', { type: 'DateTimeFilterInput' });
        t.field('updatedAt', { type: 'DateTimeFilterInput' });
        if (model.draftAndPublish) t.field('publishedAt', { type: 'DateTimeFilterInput' });
      }
      t.list.field('and', { type: name });
      t.list.field('or', { type: name });
      t.field('not', { type: name });
    },
  });
}

function input(model: GraphqlModel, schemaModel: SchemaModel) {
  return inputObjectType({
    name: names.input(model.typeName),
    definition(t) {
      if (model.kind === 'component') t.id('id');
      for (const entry of model.attributes) {
        if (!entry.input) continue;
        const attribute = entry.attribute;
        if (isScalar(attribute)) t.field(entry.name, { type: scalarOf(model, entry) });
        else if (attribute.type === 'relation' || attribute.type === 'media') {
          if (isToMany(attribute)) t.list.id(entry.name);
          else t.id(entry.name);
        } else if (attribute.type === 'component') {
          const target = names.input(targetTypeName(schemaModel, attribute));
          if (attribute.repeatable) t.list.field(entry.name, { type: target });
          else t.field(entry.name, { type: target });
        } else if (attribute.type === 'dynamiczone') {
          t.list.field(entry.name, { type: nonNull(`${dynamicZoneTypeName(model.typeName, entry.name)}Input`) });
        }
      }
      if (model.kind !== 'component') {
        // Accepted and ignored, as REST ignores them: the server keeps its own timestamps.
        t.field('createdAt', { type: 'DateTime' });
        t.field('updatedAt', { type: 'DateTime' });
        if (model.draftAndPublish) t.field('publishedAt', { type: 'DateTime' });
      }
    },
  });
}

/** A union of the zone's component types (plus `Error`), and an input scalar taking `{ __typename, ...fields }`. */
function dynamicZones(model: GraphqlModel, schemaModel: SchemaModel): unknown[] {
  const types: unknown[] = [];
  for (const entry of model.attributes) {
    const attribute = entry.attribute;
    if (attribute.type !== 'dynamiczone') continue;
    const members = attribute.components.map((uid) => schemaModel.get(uid)).filter((member): member is GraphqlModel => member !== undefined);
    const typeNames = new Map(members.map((member) => [member.typeName, member.uid]));
    const name = dynamicZoneTypeName(model.typeName, entry.name);
    if (entry.output) {
      types.push(
        unionType({
          name,
          definition(t) {
            t.members(...members.map((member) => member.typeName), 'Error');
          },
          resolveType: (value) => {
            const uid = (value as { __component?: string }).__component;
            return members.find((member) => member.uid === uid)?.typeName ?? 'Error';
          },
        }),
      );
    }
    if (entry.input) {
      types.push(
        scalarType({
          name: `${name}Input`,
          serialize: (value) => value,
          parseValue: (value) => dynamicZoneItem(value, typeNames),
          parseLiteral: (ast, variables) => dynamicZoneItem(literalValue(ast, variables), typeNames),
        }),
      );
    }
  }
  return types;
}

/** `{ __typename: 'ComponentSharedQuote', text }` → `{ __component: 'shared.quote', text }`. */
function dynamicZoneItem(value: unknown, typeNames: Map<string, string>): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new GraphQLError('A dynamic zone item must be an object');
  const { __typename, ...fields } = value as Record<string, unknown>;
  const uid = typeof __typename === 'string' ? typeNames.get(__typename) : undefined;
  if (!uid) throw new GraphQLError(`Unknown dynamic zone component: ${String(__typename).slice(0, 80)}`);
  return { __component: uid, ...fields };
}

/**
 * The declared shapes of the helper services Strapi v4's graphql plugin
 * offers (`format`, `utils`, `constants`, `internals`, `builders`): what other
 * plugins may rely on, written out so that a change to an implementation
 * (strapi-helpers.ts, format.ts, naming.ts) that breaks the contract fails to
 * compile there, not in a plugin that uses it.
 */
import type { core } from 'nexus';
import type { Component } from '@tessera/core';

/** An attribute as plugins hand it: a schema entry with at least its type. */
export interface GraphqlAttribute {
  type?: unknown;
  relation?: unknown;
  target?: unknown;
  component?: unknown;
  [key: string]: unknown;
}

/** A content type or component as plugins hand it: the model, or a plugin's own schema module. */
export interface GraphqlModel {
  uid?: string;
  kind?: string;
  modelType?: string;
  plugin?: string;
  modelName?: string;
  category?: string;
  info?: { singularName?: string; pluralName?: string };
  options?: { draftAndPublish?: boolean };
  attributes?: Record<string, GraphqlAttribute>;
}

/** What a name is derived from: a content type or component, or a plugin's own schema module (no uid). */
export type NamedModel = Omit<GraphqlModel, 'kind' | 'options' | 'attributes'>;

/** `service('utils').naming`: the names the generated schema gives a content type's types. */
export interface GraphqlNaming {
  getScalarFilterInputTypeName(scalar: string): string;
  getTypeName(contentType: NamedModel): string;
  getEntityName(contentType: NamedModel): string;
  getEntityResponseName(contentType: NamedModel): string;
  getEntityResponseCollectionName(contentType: NamedModel): string;
  getRelationResponseCollectionName(contentType: NamedModel): string;
  getFiltersInputTypeName(contentType: NamedModel): string;
  getContentTypeInputName(contentType: NamedModel): string;
  getComponentName(component: Component): string;
  getFindQueryName(contentType: NamedModel): string;
  getFindOneQueryName(contentType: NamedModel): string;
  getCreateMutationTypeName(contentType: NamedModel): string;
  getUpdateMutationTypeName(contentType: NamedModel): string;
  getDeleteMutationTypeName(contentType: NamedModel): string;
}

/** What an operator's `add` writes fields on: a nexus input definition block (of Tessera's or the plugin's nexus). */
export interface InputBlock {
  field(name: string, config: { type: unknown }): void;
  boolean(name: string): void;
}

export interface FilterOperator {
  fieldName: string;
  strapiOperator: string;
  add(t: InputBlock, type: string): void;
}

type AttributeTest = (attribute: GraphqlAttribute | undefined) => boolean;

/** `service('utils').attributes`. */
export interface GraphqlAttributeHelpers {
  isStrapiScalar: AttributeTest;
  isGraphQLScalar: AttributeTest;
  isMorphRelation: AttributeTest;
  isMedia: AttributeTest;
  isRelation: AttributeTest;
  isEnumeration: AttributeTest;
  isComponent: AttributeTest;
  isDynamicZone: AttributeTest;
}

/** An entry in the generated `<Type>Entity` shape. */
export interface ResponseEntity<T> {
  id: unknown;
  attributes: T;
}

/** `service('utils').mappers`. */
export interface GraphqlMappers {
  strapiScalarToGraphQLScalar(strapiScalar: string): string | undefined;
  graphQLFiltersToStrapiQuery(filters: unknown, contentType: GraphqlModel): unknown;
  graphqlScalarToOperators(graphqlScalar: string): Array<FilterOperator | undefined> | undefined;
  entityToResponseEntity<T extends { id: unknown }>(entity: T): ResponseEntity<T>;
  entitiesToResponseEntities<T extends { id: unknown }>(entities: T[]): Array<ResponseEntity<T>>;
}

/** `service('utils')`. */
export interface GraphqlUtils {
  naming: GraphqlNaming;
  attributes: GraphqlAttributeHelpers;
  mappers: GraphqlMappers;
}

/** `service('constants')`: Strapi's scalar lists and shared type names. */
export interface GraphqlConstants {
  PAGINATION_TYPE_NAME: string;
  RESPONSE_COLLECTION_META_TYPE_NAME: string;
  PUBLICATION_STATE_TYPE_NAME: string;
  ERROR_TYPE_NAME: string;
  GENERIC_MORPH_TYPENAME: string;
  GRAPHQL_SCALARS: string[];
  STRAPI_SCALARS: string[];
  SCALARS_ASSOCIATIONS: Record<string, string>;
  GRAPHQL_SCALAR_OPERATORS: Record<string, string[]>;
  ERROR_CODES: { emptyDynamicZone: string };
}

/** A nexus argument definition, for a plugin's own `args` beside the generated ones. */
export type GraphqlArg = core.NexusArgDef<string>;

/** `service('internals')`: the arguments every generated collection query takes. */
export interface GraphqlInternals {
  args: { SortArg: GraphqlArg; PaginationArg: GraphqlArg; PublicationStateArg: GraphqlArg };
}

/** A generated query's arguments: nexus argument definitions, or a type name. */
export type ContentTypeArgs = Record<string, GraphqlArg | string>;

/** `service('builders')`. */
export interface GraphqlBuilders {
  filters: { operators: Record<string, FilterOperator> };
  utils: {
    /** The arguments a content type's generated queries take (`multiple`: its collection query). */
    getContentTypeArgs(contentType: GraphqlModel, options?: { multiple?: boolean }): ContentTypeArgs;
    /** GraphQL arguments → the entity service's: `pagination` → `start`/`limit` (with `usePagination`), filters mapped. */
    transformArgs(input: Record<string, unknown>, options: { contentType: GraphqlModel; usePagination?: boolean }): Record<string, unknown>;
  };
}

/** What `format`'s list answer reads of a query's arguments. */
export interface FormatOptions {
  args?: { pagination?: { page?: number; pageSize?: number; start?: number; limit?: number } };
  resourceUID?: string;
}

/** `service('format')`: a custom resolver's answer in the generated response types. */
export interface GraphqlFormat {
  returnTypes: {
    toEntityResponse(value: unknown, options?: FormatOptions): { data: unknown };
    toEntityResponseNull(): { data: null };
    toEntityResponseCollection(nodes: unknown[], options?: FormatOptions): { data: unknown[]; meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } } };
  };
}

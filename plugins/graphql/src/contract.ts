/**
 * What this plugin offers other plugins: the types of its services, and their
 * place in the kernel's typed service map (`PluginServices`, filled by
 * declaration merging). A plugin that uses GraphQL lists `graphql` in its
 * (optional) dependencies and imports these types only, never this plugin's code:
 *
 *   import type { GraphqlExtensionApi } from '@tessera/plugin-graphql';
 *   app.plugin('graphql')?.service('extension')   // typed GraphqlExtensionApi
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { ExtensionService, GraphQLContext } from './extension';
import type { GraphqlBuilders, GraphqlConstants, GraphqlFormat, GraphqlInternals, GraphqlUtils } from './helper-contract';
import type { SelectionService } from './selection-service';
import type { GraphqlUploads } from './uploads-service';

/** `service('extension')`: `use()` and `shadowCRUD()`, collected until the schema is built. */
export type GraphqlExtensionApi = Pick<ExtensionService, 'use' | 'shadowCRUD'>;

/** A resolver an extension adds (`resolvers: { Mutation: { name: resolver } }`). */
export type GraphqlResolver = (parent: unknown, args: Record<string, unknown>, context: GraphQLContext, info: GraphQLResolveInfo) => unknown;

export interface GraphqlServices {
  extension: GraphqlExtensionApi;
  format: GraphqlFormat;
  /** Strapi v4's helpers (declared in helper-contract.ts, made in strapi-helpers.ts): `naming`, `attributes`, `mappers`; and the other helper services. */
  utils: GraphqlUtils;
  constants: GraphqlConstants;
  internals: GraphqlInternals;
  builders: GraphqlBuilders;
  selection: SelectionService;
  uploads: GraphqlUploads;
}

declare module '@tessera/core' {
  interface PluginServices {
    graphql: GraphqlServices;
  }
}

export type {
  ContentTypeArgs,
  FilterOperator,
  FormatOptions,
  GraphqlArg,
  GraphqlAttribute,
  GraphqlAttributeHelpers,
  GraphqlBuilders,
  GraphqlConstants,
  GraphqlFormat,
  GraphqlInternals,
  GraphqlMappers,
  GraphqlModel,
  GraphqlNaming,
  GraphqlUtils,
  InputBlock,
  NamedModel,
  ResponseEntity,
} from './helper-contract';

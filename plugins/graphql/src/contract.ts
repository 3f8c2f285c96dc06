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
import type { formatService } from './format';
import type { namingUtils } from './naming';
import type { SelectionService } from './selection-service';
import type { buildersService, constantsService, internalsService, utilsService } from './strapi-helpers';
import type { GraphqlUploads } from './uploads-service';

/** `service('extension')`: `use()` and `shadowCRUD()`, collected until the schema is built. */
export type GraphqlExtensionApi = Pick<ExtensionService, 'use' | 'shadowCRUD'>;

/** `service('utils').naming`: the names the generated schema gives a content type's types. */
export type GraphqlNaming = ReturnType<typeof namingUtils>;

/** A resolver an extension adds (`resolvers: { Mutation: { name: resolver } }`). */
export type GraphqlResolver = (parent: unknown, args: Record<string, unknown>, context: GraphQLContext, info: GraphQLResolveInfo) => unknown;

export interface GraphqlServices {
  extension: GraphqlExtensionApi;
  format: ReturnType<typeof formatService>;
  /** Strapi v4's helpers (strapi-helpers.ts): `naming`, `attributes`, `mappers`; and the other helper services. */
  utils: ReturnType<typeof utilsService>;
  constants: ReturnType<typeof constantsService>;
  internals: ReturnType<typeof internalsService>;
  builders: ReturnType<typeof buildersService>;
  selection: SelectionService;
  uploads: GraphqlUploads;
}

declare module '@tessera/core' {
  interface PluginServices {
    graphql: GraphqlServices;
  }
}

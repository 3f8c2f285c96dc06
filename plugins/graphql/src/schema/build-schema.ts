/**
 * The schema, built once (before the server listens): generated types and
 * operations (nexus) plus the extensions' nexus types and plugins, then the
 * extensions' SDL `typeDefs` and `resolvers` merged on top
 * (extension-sdl.ts), then auth, policies and middlewares wrapped
 * around the resolvers (`resolversConfig`), and last the types no client can
 * reach pruned away (prune.ts), as Strapi does.
 */
import * as nexus from 'nexus';
import { GraphQLObjectType, GraphQLSchema, assertValidSchema } from 'graphql';
import { ConfigurationError } from '@tessera/errors';
import { checkExtendedTypes, checkShadowCrudTargets } from './extension-targets';
import type { App } from '@tessera/core';
import type { ExtensionService, TypeRegistry } from '../extension';
import { SchemaModel } from '../model';
import { SCALARS } from './scalars';
import { SHARED_TYPES } from './shared-types';
import { buildModelTypes } from './content-types';
import { buildOperations, type DefaultActions } from './operations';
import { DeclaredArguments } from './declared-arguments';
import { pruneSchema } from './prune';
import { withExtensionSdl } from './extension-sdl';
import { FieldResolvers } from '../resolve/field-resolvers';
import type { GraphqlLimits } from '../resolve/link-page';
import { SelectionPlanner } from '../resolve/selection';
import { wrapResolvers } from '../resolve/wrap-resolvers';

export interface BuiltSchema {
  schema: GraphQLSchema;
  model: SchemaModel;
  /** Selection sets → content-API `fields` and `populate` (also what the `selection` service answers). */
  planner: SelectionPlanner;
}

export function buildSchema(app: App, extension: ExtensionService, options: { shadowCRUD: boolean; limits: GraphqlLimits }): BuiltSchema {
  const model = new SchemaModel(app, extension);
  // The planner needs the finished schema (which types extensions extended): resolvers reach it lazily.
  let planner: SelectionPlanner | undefined;
  const getPlanner = () => planner!;
  const actions: DefaultActions = new Map();

  const generated: unknown[] = [...SCALARS, ...SHARED_TYPES, rootType('Query'), rootType('Mutation')];
  if (options.shadowCRUD) {
    generated.push(...buildModelTypes(model, new FieldResolvers(model, getPlanner, options.limits)));
    generated.push(...buildOperations({ app, schemaModel: model, planner: getPlanner, limits: options.limits, extension, actions, declared: new DeclaredArguments(app) }));
  }
  const registry = registryOf(generated);
  const extensions = extension.generate({ strapi: app, app, nexus, typeRegistry: registry });
  checkExtendedTypes(registry.names(), extensions.types, (message) => app.log.warn(message));
  checkShadowCrudTargets(app, extension.configuredTypes());

  let schema = nexus.makeSchema({
    types: [...generated, ...extensions.types] as never,
    plugins: extensions.plugins as never,
    outputs: false,
    shouldGenerateArtifacts: false,
    features: { abstractTypeStrategies: { resolveType: true } },
  }) as unknown as GraphQLSchema;
  if (extensions.typeDefs.trim() || Object.keys(extensions.resolvers).length > 0) {
    schema = withExtensionSdl(schema, extensions.typeDefs, extensions.resolvers as never);
  }
  schema = withoutEmptyMutation(schema);
  try {
    assertValidSchema(schema);
  } catch (error) {
    throw new ConfigurationError(`graphql: the schema is not valid: ${(error as Error).message}`);
  }
  wrapResolvers(schema, app, extensions.resolversConfig, actions);
  schema = pruneSchema(schema);
  planner = new SelectionPlanner(model, extendedTypes(schema, model), options.limits);
  return { schema, model, planner };
}

/** Mutation exists during the build so extensions can extend it; with no field at all it leaves the schema. */
function withoutEmptyMutation(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation || Object.keys(mutation.getFields()).length > 0) return schema;
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, mutation: undefined, types: config.types.filter((type) => type !== mutation) });
}

/** Query and Mutation always exist, so extensions can `extend type` them. */
function rootType(name: 'Query' | 'Mutation') {
  return nexus.objectType({ name, definition: () => undefined, nonNullDefaults: { output: false } } as never);
}

/** Generated types an extension added fields to: their entries are loaded whole. */
function extendedTypes(schema: GraphQLSchema, model: SchemaModel): Set<string> {
  const extended = new Set<string>();
  for (const entry of model.all()) {
    const type = schema.getType(entry.typeName);
    if (!(type instanceof GraphQLObjectType)) continue;
    const generated = new Set([...entry.attributes.map((attribute) => attribute.name), 'id', 'createdAt', 'updatedAt', 'publishedAt']);
    if (Object.keys(type.getFields()).some((field) => !generated.has(field))) extended.add(entry.typeName);
  }
  return extended;
}

/** Strapi hands extensions a registry of the generated types; ours answers by name. */
function registryOf(types: unknown[]): TypeRegistry {
  const byName = new Map<string, unknown>();
  for (const type of types) {
    const name = (type as { name?: unknown }).name;
    if (typeof name === 'string') byName.set(name, type);
  }
  return {
    has: (name) => byName.has(name),
    get: (name) => byName.get(name),
    names: () => [...byName.keys()],
  };
}

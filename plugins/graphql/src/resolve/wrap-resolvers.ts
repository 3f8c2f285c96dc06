/**
 * Auth, policies and middlewares around resolvers, as `resolversConfig`
 * describes them for shadow-CRUD and custom resolvers alike:
 *
 *   auth (Query/Mutation fields, fields whose config sets it) → middlewares (first = outermost) → policies → resolver
 *
 * Auth and policies are the kernel's gate (core auth/gate.ts, as REST routes run it):
 * `auth: false` lets anyone in; `{ scope }` needs every one of those actions;
 * otherwise a generated resolver needs its own action (`find`, `findOne`,
 * `create`, ...) and a custom one any credential. It applies to Query and
 * Mutation fields, and to any field whose config says `auth` (Strapi's
 * rule). Every refusal is Strapi's GraphQL answer, a `ForbiddenError`
 * "Forbidden access" on the field; an anonymous caller whose public role
 * grants nothing never gets here: the endpoint's route refuses it with a 401.
 *
 * Policy and middleware names resolve by the kernel's one rule
 * (`findReferenced`): resolversConfig has no owning API or plugin, so a name
 * is qualified (`global::x`, `api::a.x`, `plugin::p.x`), as in Strapi.
 */
import { defaultFieldResolver, GraphQLObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { Caller, findReferenced, Gate, namedReference, resolverPolicyContext, type App, type AuthRequirement } from '@tessera/core';
import { ConfigurationError, ForbiddenError, PolicyError } from '@tessera/errors';
import type { GraphQLContext, Reference, ResolverConfig, ResolverMiddleware } from '../extension';
import type { DefaultActions } from '../schema/operations';

type Resolver = GraphQLFieldResolver<unknown, GraphQLContext>;

const ROOT_TYPES = new Set(['Query', 'Mutation']);

export function wrapResolvers(schema: GraphQLSchema, app: App, resolversConfig: Record<string, ResolverConfig>, defaults: DefaultActions): void {
  const keys = new Set(Object.keys(resolversConfig));
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const name of Object.keys(root?.getFields() ?? {})) keys.add(`${root!.name}.${name}`);
  }
  for (const key of keys) {
    const [typeName, fieldName] = key.split('.');
    const type = schema.getType(typeName);
    const field = type instanceof GraphQLObjectType ? type.getFields()[fieldName] : undefined;
    if (!field) {
      app.log.warn(`graphql: resolversConfig["${key}"] names no field of the schema`);
      continue;
    }
    const config = resolversConfig[key] ?? {};
    field.resolve = wrap(field.resolve ?? defaultFieldResolver, config, {
      app,
      key,
      guarded: ROOT_TYPES.has(typeName) || config.auth !== undefined,
      defaultAction: defaults.get(key),
    });
  }
}

interface WrapOptions {
  app: App;
  /** `Type.field`, for configuration errors. */
  key: string;
  /** Whether auth applies: Query and Mutation fields, and fields whose config says `auth`. */
  guarded: boolean;
  defaultAction: string | undefined;
}

function wrap(resolver: Resolver, config: ResolverConfig, options: WrapOptions): Resolver {
  const where = `graphql resolversConfig["${options.key}"]`;
  // A field auth does not apply to (a nested field configured for its policies) requires nothing: its gate only runs them.
  const requirement = options.guarded ? requirementOf(config.auth) : false;
  const gate = new Gate(options.app, { requirement, ownAction: options.defaultAction, policies: config.policies, where, listedAs: `graphql ${options.key}` });
  const middlewares = (config.middlewares ?? []).map((reference) => resolveMiddleware(options.app, reference, where));
  const inner = gate.hasPolicies ? withPolicies(resolver, gate) : resolver;
  const chained = middlewares.reduceRight<Resolver>((next, middleware) => (parent, args, context, info) => middleware(next, parent, args, context, info), inner);
  return options.guarded ? authorized(chained, gate) : chained;
}

/** A resolver config's `auth`: `false`, `{ scope }` (one action may be given alone, as Strapi casts it), or nothing. */
function requirementOf(setting: ResolverConfig['auth']): AuthRequirement {
  if (setting === false || setting === undefined) return setting;
  return typeof setting.scope === 'string' ? { scope: [setting.scope] } : { scope: setting.scope };
}

/**
 * The gate's decision first, before any middleware (Strapi's order), synchronously — a synchronous resolver stays
 * one (a configured nested field runs once per entry: no promise per call), and a refusal thrown here is the same
 * field error graphql-js makes of a rejected promise. Strapi's resolvers answer every refusal alike.
 */
function authorized(resolver: Resolver, gate: Gate): Resolver {
  return (parent, args, context, info) => {
    if (gate.refusal(Caller.of(context.state.auth)) !== undefined) throw new ForbiddenError('Forbidden access');
    return resolver(parent, args, context, info);
  };
}

/** The gate's policies in order (any may be async), on Strapi's GraphQL policy context, then the resolver. */
function withPolicies(resolver: Resolver, gate: Gate): Resolver {
  return async (parent, args, context, info) => {
    const { state, koaContext } = context;
    const policyContext = resolverPolicyContext({ parent, args, context, info, state, http: koaContext, ctx: koaContext, auth: state.auth });
    if (!(await gate.admits(policyContext))) throw new PolicyError();
    return resolver(parent, args, context, info);
  };
}

/** A function `(next, parent, args, context, info)`, or a registered middleware (by its qualified name) whose factory returns one. */
function resolveMiddleware(app: App, reference: Reference<ResolverMiddleware>, where: string): ResolverMiddleware {
  if (typeof reference === 'function') return reference;
  const { name, config } = namedReference(reference);
  const middleware: unknown = findReferenced(app.middlewares, name, undefined, where)(config, app.context);
  if (typeof middleware !== 'function') throw new ConfigurationError(`${where}: middleware "${name}" does not return a function`);
  return middleware as ResolverMiddleware;
}

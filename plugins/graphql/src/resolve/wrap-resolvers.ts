/**
 * Auth, policies and middlewares around resolvers, as `resolversConfig`
 * describes them for shadow-CRUD and custom resolvers alike:
 *
 *   auth (Query/Mutation fields, fields whose config sets it) → middlewares (first = outermost) → policies → resolver
 *
 * Auth is the kernel's one decision (`refusalOf`, as REST routes use it):
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
import { findReferenced, namedReference, policyAdmits, refusalOf, type App, type AuthState } from '@tessera/core';
import { ForbiddenError, PolicyError } from '@tessera/errors';
import type { GraphQLContext, GraphqlPolicy, Reference, ResolverConfig, ResolverMiddleware } from '../extension';
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
  const policies = (config.policies ?? []).map((reference) => resolvePolicy(options.app, reference, options.key));
  const middlewares = (config.middlewares ?? []).map((reference) => resolveMiddleware(options.app, reference, options.key));
  const inner = policies.length === 0 ? resolver : withPolicies(resolver, policies);
  const chained = middlewares.reduceRight<Resolver>((next, middleware) => (parent, args, context, info) => middleware(next, parent, args, context, info), inner);
  return options.guarded ? authorized(chained, config, options) : chained;
}

/**
 * Auth first, before any middleware (Strapi's order), synchronously — a
 * synchronous resolver stays one (a configured nested field runs once per
 * entry: no promise per call), and a refusal thrown here is the same field
 * error graphql-js makes of a rejected promise.
 */
function authorized(resolver: Resolver, config: ResolverConfig, options: WrapOptions): Resolver {
  return (parent, args, context, info) => {
    authorize(context.state.auth, config.auth, options.defaultAction);
    return resolver(parent, args, context, info);
  };
}

/** Each policy in order (any may be async; what is neither true nor undefined refuses, as in Strapi), then the resolver. */
function withPolicies(resolver: Resolver, policies: Array<(policyContext: Parameters<GraphqlPolicy>[0]) => unknown>): Resolver {
  return async (parent, args, context, info) => {
    for (const policy of policies) {
      const policyContext = { parent, args, context, info, state: context.state, http: context.koaContext, ctx: context.koaContext, auth: context.state.auth };
      if (!policyAdmits(await policy(policyContext))) throw new PolicyError();
    }
    return resolver(parent, args, context, info);
  };
}

function authorize(auth: AuthState, setting: ResolverConfig['auth'], defaultAction: string | undefined): void {
  const requirement = setting && typeof setting.scope === 'string' ? { scope: [setting.scope] } : (setting as false | { scope: string[] } | undefined);
  // Strapi's resolvers answer every refusal alike, whatever the reason.
  if (refusalOf(auth, requirement, defaultAction) !== undefined) throw new ForbiddenError('Forbidden access');
}

/** A function, or a registered policy by its qualified name. */
function resolvePolicy(app: App, reference: Reference<GraphqlPolicy>, key: string): (policyContext: Parameters<GraphqlPolicy>[0]) => unknown {
  if (typeof reference === 'function') return (policyContext) => reference(policyContext, {}, app.context);
  const { name, config } = namedReference(reference);
  const policy = findReferenced(app.policies, name, undefined, `graphql resolversConfig["${key}"]`);
  return (policyContext) => (policy as unknown as GraphqlPolicy)(policyContext, config, app.context);
}

/** A function `(next, parent, args, context, info)`, or a registered middleware (by its qualified name) whose factory returns one. */
function resolveMiddleware(app: App, reference: Reference<ResolverMiddleware>, key: string): ResolverMiddleware {
  if (typeof reference === 'function') return reference;
  const { name, config } = namedReference(reference);
  const factory = findReferenced(app.middlewares, name, undefined, `graphql resolversConfig["${key}"]`);
  return factory(config, app.context) as unknown as ResolverMiddleware;
}

/**
 * Auth, policies and middlewares around resolvers, as `resolversConfig`
 * describes them for shadow-CRUD and custom resolvers alike:
 *
 *   middlewares (first = outermost) → auth (Query/Mutation fields) → policies → resolver
 *
 * Auth: `auth: false` lets anyone in; `{ scope }` needs one of those
 * actions; otherwise a generated resolver needs its own action
 * (`find`, `findOne`, `create`, ...) and a custom one any credential.
 */
import { defaultFieldResolver, GraphQLObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { App, AuthState } from '@tessera/core';
import { ConfigurationError, ForbiddenError, PolicyError, UnauthorizedError } from '@tessera/errors';
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
      root: ROOT_TYPES.has(typeName),
      defaultAction: defaults.get(key),
    });
  }
}

interface WrapOptions {
  app: App;
  root: boolean;
  defaultAction: string | undefined;
}

function wrap(resolver: Resolver, config: ResolverConfig, options: WrapOptions): Resolver {
  const policies = (config.policies ?? []).map((reference) => resolvePolicy(options.app, reference));
  const guarded = policies.length === 0 ? authorized(resolver, config, options) : withPolicies(resolver, config, options, policies);
  const middlewares = (config.middlewares ?? []).map((reference) => resolveMiddleware(options.app, reference));
  return middlewares.reduceRight<Resolver>((next, middleware) => (parent, args, context, info) => middleware(next, parent, args, context, info), guarded);
}

/**
 * Without policies: auth, then the resolver, synchronously — a synchronous
 * resolver stays one (a configured nested field runs once per entry: no
 * promise per call), and a refusal thrown here is the same field error
 * graphql-js makes of a rejected promise.
 */
function authorized(resolver: Resolver, config: ResolverConfig, options: WrapOptions): Resolver {
  if (!options.root) return resolver;
  return (parent, args, context, info) => {
    authorize(context.state.auth, config.auth, options.defaultAction);
    return resolver(parent, args, context, info);
  };
}

/** Auth, then each policy in order (any may be async; `false` refuses), then the resolver. */
function withPolicies(resolver: Resolver, config: ResolverConfig, options: WrapOptions, policies: Array<(policyContext: Parameters<GraphqlPolicy>[0]) => unknown>): Resolver {
  return async (parent, args, context, info) => {
    if (options.root) authorize(context.state.auth, config.auth, options.defaultAction);
    for (const policy of policies) {
      const policyContext = { parent, args, context, info, state: context.state, http: context.koaContext, ctx: context.koaContext, auth: context.state.auth };
      if ((await policy(policyContext)) === false) throw new PolicyError();
    }
    return resolver(parent, args, context, info);
  };
}

function authorize(auth: AuthState, setting: ResolverConfig['auth'], defaultAction: string | undefined): void {
  if (setting === false) return;
  const scope = setting?.scope ?? (defaultAction ? [defaultAction] : undefined);
  if (!scope) {
    // A custom resolver without a scope: any credential, no anonymous caller (Strapi's rule).
    if (auth.strategy === 'public') throw new UnauthorizedError();
    return;
  }
  if (!scope.some((action) => auth.ability.can(action))) throw new ForbiddenError('Forbidden access');
}

function referenceName<T>(reference: Reference<T>): { name: string; config: unknown } {
  if (typeof reference === 'string') return { name: reference, config: {} };
  const named = reference as { name: string; config?: unknown; options?: unknown };
  return { name: named.name, config: named.config ?? named.options ?? {} };
}

/** A function, or a registered policy (`global::x`, `api::a.x`, `plugin::p.x`; a bare name is global). */
function resolvePolicy(app: App, reference: Reference<GraphqlPolicy>): (policyContext: Parameters<GraphqlPolicy>[0]) => unknown {
  if (typeof reference === 'function') return (policyContext) => reference(policyContext, {}, app.context);
  const { name, config } = referenceName(reference);
  const uid = name.includes('::') ? name : `global::${name}`;
  const policy = app.policies.find(uid);
  if (!policy) throw new ConfigurationError(`graphql resolversConfig: unknown policy "${name}"`);
  return (policyContext) => (policy as unknown as GraphqlPolicy)(policyContext, config, app.context);
}

/** A function `(next, parent, args, context, info)`, or a registered middleware whose factory returns one. */
function resolveMiddleware(app: App, reference: Reference<ResolverMiddleware>): ResolverMiddleware {
  if (typeof reference === 'function') return reference;
  const { name, config } = referenceName(reference);
  const uid = name.includes('::') ? name : `global::${name}`;
  const factory = app.middlewares.find(uid);
  if (!factory) throw new ConfigurationError(`graphql resolversConfig: unknown middleware "${name}"`);
  return factory(config, app.context) as unknown as ResolverMiddleware;
}

/**
 * The gate: what a caller passes before a route's handler or a GraphQL
 * resolver runs. One per route or resolver, compiled once from its config —
 * its requirement (`auth`), its own action, its policies — and used by every
 * transport: REST and plugin routes and admin routes (http/routes.ts), and
 * GraphQL resolvers (plugins/graphql's resolve/wrap-resolvers.ts). A rule added
 * here reaches them all at once.
 *
 *   caller (auth/caller.ts, built once per request) → gate: its decision → policies → handler or resolver
 *
 * Each transport words the refusal its own way (REST: Strapi's route chain;
 * GraphQL: "Forbidden access" on the field), never the decision. Policies get
 * Strapi's policy context (`createPolicyContext`): the transport's context with
 * `type` and `is(type)`, so a Strapi policy reading `policyContext.state.user`
 * runs unchanged on either; Tessera adds `ctx` and `auth`.
 */
import type Koa from 'koa';
import { ConfigurationError } from '../errors';
import type { App } from '../app-type';
import type { AuthState, MountedRoute, PolicyContext, PolicyFunction, PolicyReference, ResolverPolicyContext, RoutePolicyContext } from '../types';
import { findReferenced, namedReference } from '../registries/references';
import { policyAdmits, type AuthRequirement, type Refusal } from './authorize';
import type { Caller } from './caller';

/** What a route or resolver asks of its caller: Strapi's `config.auth`, or `per-operation` (the handler asks per operation). */
export type GateRequirement = AuthRequirement | 'per-operation';

export interface GateConfig {
  requirement: GateRequirement;
  /** The route's or generated resolver's own action, asked for when the requirement names no scope. */
  ownAction?: string;
  policies?: readonly PolicyReference[];
  /** Where unqualified policy names resolve (`api::article`, `plugin::upload`); resolver configs have none. */
  namespace?: string;
  /** Names the route or resolver in configuration errors: `route GET /articles`, `graphql resolversConfig["Query.x"]`. */
  where: string;
  /** Names it in the app's list of gates (`gatesOf`): a route by its mounted path (`GET /api/articles`); `where` when absent. */
  listedAs?: string;
}

/** What `tessera routes` and the gate listing test show of a gate. */
export interface GateSummary {
  requirement: 'none' | 'scope' | 'own action' | 'credential' | 'per-operation';
  actions: string[];
  policies: string[];
}

interface ResolvedPolicy {
  name: string;
  run: (context: PolicyContext) => unknown;
}

/** The gates compiled for each app, by what they guard (a rebuilt GraphQL schema replaces its resolvers' gates). */
const compiled = new WeakMap<App, Map<string, Gate>>();

/** Every gate an app runs, by the route or resolver it guards: what the gate listing test and `tessera routes` show. */
export function gatesOf(app: App): ReadonlyMap<string, Gate> {
  return compiled.get(app) ?? new Map();
}

export class Gate {
  private readonly policies: ResolvedPolicy[];

  constructor(
    app: App,
    private readonly config: GateConfig,
  ) {
    this.policies = (config.policies ?? []).map((reference) => resolvePolicy(app, reference, config));
    let gates = compiled.get(app);
    if (!gates) compiled.set(app, (gates = new Map()));
    gates.set(config.listedAs ?? config.where, this);
  }


  /** The one decision on the caller: undefined when it may pass, else why not (each transport words it). */
  refusal(caller: Caller): Refusal | undefined {
    const { requirement, ownAction } = this.config;
    if (requirement !== 'per-operation') return caller.refusal(requirement, ownAction);
    return caller.isCaller ? undefined : 'unauthenticated';
  }

  get hasPolicies(): boolean {
    return this.policies.length > 0;
  }

  /** Runs the policies in order on the transport's context; false at the first that refuses (Strapi: neither `true` nor nothing). */
  async admits(context: PolicyContext): Promise<boolean> {
    for (const policy of this.policies) if (!policyAdmits(await policy.run(context))) return false;
    return true;
  }

  summary(): GateSummary {
    const { requirement, ownAction } = this.config;
    const policies = this.policies.map((policy) => policy.name);
    if (requirement === false) return { requirement: 'none', actions: [], policies };
    if (requirement === 'per-operation') return { requirement: 'per-operation', actions: [], policies };
    if (requirement?.scope) return { requirement: 'scope', actions: [...requirement.scope], policies };
    if (ownAction !== undefined) return { requirement: 'own action', actions: [ownAction], policies };
    return { requirement: 'credential', actions: [], policies };
  }
}

/** Strapi's `createPolicyContext('koa', ctx)`: the Koa context's own members with `type` and `is`; plus Tessera's `ctx`, `auth`, `route`. */
export function routePolicyContext(ctx: Koa.Context, route: MountedRoute): RoutePolicyContext {
  const own = { ctx, auth: ctx.state.auth as AuthState, route, state: ctx.state as Record<string, unknown>, request: ctx.request, response: ctx.response };
  return Object.assign({ type: 'koa' as const, is: (type: string) => type === 'koa' }, ctx, own);
}

/** Strapi's `createPolicyContext('graphql', …)`: the resolver's arguments with `type` and `is`. */
export function resolverPolicyContext(fields: Omit<ResolverPolicyContext, 'type' | 'is'>): ResolverPolicyContext {
  return Object.assign({ type: 'graphql' as const, is: (type: string) => type === 'graphql' }, fields);
}

function resolvePolicy(app: App, reference: PolicyReference, config: GateConfig): ResolvedPolicy {
  if (typeof reference === 'function') return { name: '(function)', run: (context) => reference(context, {}, app.context) };
  const { name, config: policyConfig } = namedReference(reference);
  const policy: PolicyFunction = findReferenced(app.policies, name, config.namespace, config.where);
  if (typeof policy !== 'function') throw new ConfigurationError(`${config.where}: policy "${name}" is not a function`);
  return { name, run: (context) => policy(context, policyConfig, app.context) };
}

/**
 * Types at the kernel's boundary: what plugins and apps hand to the kernel.
 */
import type Koa from 'koa';
import type { LifecycleHandlers } from '@tessera/database';
import type { App } from './app-type';
import type { Env } from './config/env';

/** Who a request acts as (auth/caller.ts builds the Caller); here so the strategy types name it without importing the caller. */
export type CallerKind = 'public' | 'user' | 'api-token' | 'admin' | 'server';

/**
 * What lifecycle functions and factories receive. `strapi` is the app itself,
 * under the name Strapi v4 code destructures (`register({ strapi })`).
 */
export interface KernelContext {
  strapi: App;
  app: App;
}

/** A content type's five core actions: its core routes (rest's router), and the generated operations a declared parameter may join. */
export type CoreAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** Services and controllers are objects, or factories given `{ strapi, app }`. */
export type Provider<T> = T | ((context: KernelContext) => T);

/** A content type as a plugin declares it: Strapi v4's `{ schema, lifecycles }`. */
export interface PluginContentType {
  schema: unknown;
  lifecycles?: LifecycleHandlers;
  /**
   * Attributes of `schema` that Tessera adds to Strapi's for its own work (users-permissions' `passwordChangedAt`).
   * An app's `src/extensions/<plugin>/content-types/<name>/schema.json` is written for Strapi and replaces the whole
   * attribute list without them; they are kept (extensions.ts).
   */
  tesseraAttributes?: string[];
}

/** `routes` of a plugin: an array (admin routes, as in Strapi v4) or routers by name (`content-api`, `admin`). */
export type PluginRoutes = RouteConfig[] | Record<string, RouterDefinition | RouteConfig[]>;

/**
 * A plugin's server side in Strapi v4's format, as `strapi-server.js`
 * exports it. Everything is optional; the kernel gives each entry the uid
 * `plugin::<name>.<key>`.
 */
export interface PluginServer {
  register?(context: KernelContext): unknown;
  bootstrap?(context: KernelContext): unknown;
  destroy?(context: KernelContext): unknown;
  config?: {
    default?: Record<string, unknown> | ((context: { env: Env }) => Record<string, unknown>);
    /** Throws (or rejects) when the merged config is invalid; the message should name the key. Awaited. */
    validator?(config: Record<string, unknown>): void | Promise<unknown>;
  };
  contentTypes?: Record<string, PluginContentType>;
  /** Components by uid (`category.name`): their schema. */
  components?: Record<string, unknown>;
  services?: Record<string, Provider<object>>;
  controllers?: Record<string, Provider<object>>;
  routes?: PluginRoutes;
  policies?: Record<string, PolicyFunction>;
  middlewares?: Record<string, MiddlewareFactory>;
}

/** A plugin as the kernel runs it: its server side, its name and what it needs. */
export interface Plugin extends PluginServer {
  name: string;
  /** Plugins that must be enabled, and register and bootstrap before this one. */
  dependencies?: string[];
  /** Plugins that, when enabled, register and bootstrap before this one. */
  optionalDependencies?: string[];
}

/** `ALL`: every method (Strapi v4's route schema accepts it; @koa/router's `all`). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'ALL';

/** A route's handler function: a Koa middleware, whose `next` is the next function of a handler list (or nothing). */
export type RouteHandler = (ctx: Koa.Context, next: () => Promise<unknown>) => unknown | Promise<unknown>;

/**
 * What a policy receives, as Strapi's `createPolicyContext` makes it (auth/gate.ts): the transport's context with
 * `type` (`koa` or `graphql`) and `is(type)`. Tessera adds the Koa context as `ctx` and the caller as `auth` on both.
 */
interface PolicyContextBase {
  is(type: string): boolean;
  /** The request's Koa state (`state.user`, `state.auth`, an admin's `state.userAbility`). */
  state: Record<string, unknown>;
  ctx: Koa.Context;
  /** The authenticated caller (or the public one). */
  auth: AuthState;
}

/** A route's policy context: the Koa context's own members (`state`, `request`, `response`, `params`, …). */
export interface RoutePolicyContext extends PolicyContextBase {
  type: 'koa';
  request: Koa.Request;
  response: Koa.Response;
  params?: Record<string, string>;
  /** The matched route as declared (`method`, `path` without the `/api` prefix, `handler`, `config`), with `info`. */
  route: MountedRoute;
}

/** A GraphQL resolver's policy context (Strapi's: `parent`, `args`, `context`, `info`, `state`, `http`). */
export interface ResolverPolicyContext extends PolicyContextBase {
  type: 'graphql';
  parent: unknown;
  args: Record<string, unknown>;
  /** The resolver's GraphQL context (`state`, `koaContext`). */
  context: unknown;
  info: unknown;
  /** The Koa context (Strapi's name for it here). */
  http: Koa.Context;
}

export type PolicyContext = RoutePolicyContext | ResolverPolicyContext;

export type PolicyFunction = (policyContext: PolicyContext, config: unknown, context: KernelContext) => unknown;

/** A registered policy (`global::x`, `api::a.x`, `plugin::p.x`) or an inline function. */
export type PolicyReference = string | PolicyFunction | { name: string; config?: unknown };

export type RouteMiddleware = (ctx: Koa.Context, next: Koa.Next) => unknown | Promise<unknown>;

/** A registered middleware is a factory `(config, { strapi, app }) => koa middleware` (`strapi` is `app`). */
export type MiddlewareFactory = (config: unknown, context: KernelContext) => RouteMiddleware;

export type MiddlewareReference = string | RouteMiddleware | { name: string; config?: unknown };

export interface RouteOptions {
  /** Replaces the router's prefix for this route (Strapi v4: `prefix: ''` mounts a plugin route at `/api<path>`). */
  prefix?: string;
  /**
   * `false`: no authentication or permission check, and the handler runs as the public caller
   * (it reads what anonymous callers may read); `{ scope }`: one of these actions suffices;
   * `'per-operation'`: the caller is authenticated here (a refused token, or an anonymous caller
   * whose public role grants nothing, is a 401) and the handler authorizes each operation with
   * the same decision (auth/authorize.ts) — GraphQL's endpoint, which Strapi mounts `auth: false`
   * and authenticates in its handler.
   */
  auth?: false | { scope: string[] } | 'per-operation';
  policies?: PolicyReference[];
  middlewares?: MiddlewareReference[];
}

export interface RouteConfig {
  method: HttpMethod;
  path: string;
  /**
   * `'<controller>.<action>'` within the router's API, `'api::a.c.action'`, a function, or a list of functions run
   * in turn as Koa middlewares (Strapi v4 composes them; strapi-health-plugin's route is one).
   */
  handler: string | RouteHandler | RouteHandler[];
  config?: RouteOptions;
}

/** Where a mounted route comes from, as Strapi v4's `route.info`. */
export interface RouteInfo {
  type: NonNullable<RouterDefinition['type']>;
  /** `article` for routes of `api::article`. */
  apiName?: string;
  /** `users-permissions` for routes of `plugin::users-permissions`. */
  pluginName?: string;
}

export interface MountedRoute extends RouteConfig {
  info: RouteInfo;
}

export interface RouterDefinition {
  /** `content-api` routes live under `/api`; `admin` under `/admin`; `raw` at the root. */
  type?: 'content-api' | 'admin' | 'raw';
  prefix?: string;
  routes: RouteConfig[] | ((context: KernelContext) => RouteConfig[]);
}

/** Who is calling, and what they may do. */
export interface AuthState {
  /**
   * The strategy that recognised the caller, as Strapi's `ctx.state.auth.strategy` (plugins read its `name`:
   * strapi-plugin-soft-delete records who deleted); `name` is `public` when no credential was sent.
   */
  strategy: {
    readonly name: string;
    /** The kind of caller it recognises (auth/caller.ts); without one, `public` for the public caller, else `user`. */
    readonly callerKind?: CallerKind;
    /**
     * The strategy's own rule for a requirement's scope (`undefined`: none given), as Strapi's strategies have
     * their own `verify`; without one, the kernel's (auth/authorize.ts): every action of the scope.
     */
    scopeRefusal?(auth: AuthState, scope: readonly string[] | undefined): 'forbidden' | undefined;
  };
  credentials: Record<string, unknown> | null;
  ability: Ability;
  /**
   * The end user the credential belongs to, when a strategy has one: the route puts it on `ctx.state.user`, where
   * Strapi's users-permissions strategy puts it and Strapi plugins read it (strapi-plugin-ratings' reviews).
   */
  user?: Record<string, unknown>;
  /**
   * What the strategy puts on `ctx.state` besides `auth`, `user` and `isAuthenticated` (Strapi's admin strategy sets
   * `userAbility`): copied there by the route's guard.
   */
  requestState?: Readonly<Record<string, unknown>>;
}

export interface Ability {
  can(action: string): boolean;
  /** True when it grants nothing at all: an anonymous caller refused by such an ability gets a 401 (see auth/authorize.ts). */
  isEmpty?(): boolean;
}

export interface AuthStrategy {
  name: string;
  /** The kind of caller its credentials make (auth/caller.ts); a strategy without one makes users. */
  readonly callerKind?: CallerKind;
  /**
   * Returns the caller for a bearer token this strategy recognises, `null`
   * when the token is not its kind; throws UnauthorizedError when it is its
   * kind but invalid or expired.
   */
  authenticate(token: string): Promise<AuthState | null>;
}

/**
 * Where the anonymous caller's permissions come from. The kernel's default
 * provider reads `config/permissions.ts`; the users-permissions plugin
 * replaces it (`app.permissions.use(...)`) with the public role it stores in
 * the database. Called once per anonymous request: cache inside.
 */
export interface PermissionProvider {
  name: string;
  publicAbility(): Ability | Promise<Ability>;
}

/**
 * Types at the kernel's boundary: what plugins and apps hand to the kernel.
 */
import type Koa from 'koa';
import type { App } from './app';

export interface Plugin {
  name: string;
  /** Plugins that must register and bootstrap before this one. */
  dependencies?: string[];
  register?(app: App): void | Promise<void>;
  bootstrap?(app: App): void | Promise<void>;
  destroy?(app: App): void | Promise<void>;
}

/** Services and controllers are objects, or factories given `{ app }`. */
export type Provider<T> = T | ((context: { app: App }) => T);

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export type RouteHandler = (ctx: Koa.Context) => unknown | Promise<unknown>;

export interface PolicyContext {
  ctx: Koa.Context;
  /** The authenticated caller (or the public one). */
  auth: AuthState;
  route: RouteConfig;
}

export type PolicyFunction = (policyContext: PolicyContext, config: unknown, context: { app: App }) => boolean | void | Promise<boolean | void>;

/** A registered policy (`global::x`, `api::a.x`, `plugin::p.x`) or an inline function. */
export type PolicyReference = string | PolicyFunction | { name: string; config?: unknown };

export type RouteMiddleware = (ctx: Koa.Context, next: Koa.Next) => unknown | Promise<unknown>;

/** A registered middleware is a factory `(config, { app }) => koa middleware`. */
export type MiddlewareFactory = (config: unknown, context: { app: App }) => RouteMiddleware;

export type MiddlewareReference = string | RouteMiddleware | { name: string; config?: unknown };

export interface RouteOptions {
  /** `false`: no authentication or permission check at all; `{ scope }`: one of these actions suffices. */
  auth?: false | { scope: string[] };
  policies?: PolicyReference[];
  middlewares?: MiddlewareReference[];
}

export interface RouteConfig {
  method: HttpMethod;
  path: string;
  /** `'<controller>.<action>'` within the router's API, `'api::a.c.action'`, or a function. */
  handler: string | RouteHandler;
  config?: RouteOptions;
}

export interface RouterDefinition {
  /** `content-api` routes live under `/api`; `admin` under `/admin`; `raw` at the root. */
  type?: 'content-api' | 'admin' | 'raw';
  prefix?: string;
  routes: RouteConfig[] | ((context: { app: App }) => RouteConfig[]);
}

/** Who is calling, and what they may do. */
export interface AuthState {
  /** `public` when no credential was sent. */
  strategy: string;
  credentials: Record<string, unknown> | null;
  ability: Ability;
}

export interface Ability {
  can(action: string): boolean;
}

export interface AuthStrategy {
  name: string;
  /**
   * Returns the caller for a bearer token this strategy recognises, `null`
   * when the token is not its kind; throws UnauthorizedError when it is its
   * kind but invalid or expired.
   */
  authenticate(token: string): Promise<AuthState | null>;
}

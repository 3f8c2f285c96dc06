/**
 * What a built-in global middleware (`strapi::<name>` / `tessera::<name>`) is:
 * the config keys it understands and a factory run once at boot. A factory
 * that has nothing to do for this app returns undefined and costs requests
 * nothing.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import type { App } from '../../app-type';

export interface BuiltinContext {
  app: App;
  /** The router routes are mounted on (filled after bootstrap; read per request only). */
  router: Router;
  /** The app's middlewares config file, for error messages. */
  file: string;
}

export type BuiltinConfig = Record<string, unknown>;

export interface Builtin {
  /** Config keys it reads; any other key is reported at boot (a Strapi option Tessera does not have). */
  keys: readonly string[];
  create(config: BuiltinConfig, context: BuiltinContext): Koa.Middleware | ResponseHeaders | undefined;
}

/**
 * What a built-in that only adds the same headers to every response makes instead of a middleware: the stack
 * sets the headers of neighbouring ones in one step (stack.ts), one chain level and one pass for all of them.
 */
export interface ResponseHeaders {
  headers: ReadonlyArray<readonly [name: string, value: string]>;
}

/**
 * `strapi.requestContext`: Strapi v4's per-request store — `get()` answers the
 * Koa context of the request whose work is running (in a lifecycle hook, an
 * entity-service decorator, a service), `run(store, fn)` sets one for `fn`.
 * Plugins read the caller there (`strapi.requestContext.get()?.state.user`).
 *
 * Why it can be off: on Node 20 the store rides on async hooks, and once one
 * request has run inside it every promise the process makes pays for the
 * hook (about 130 ns each; a get one makes some 35). Tessera's own code never reads
 * it, so requests run inside it only when Strapi code that reads it is loaded:
 * the boot turns it on when the app's or a plugin's files name it
 * (strapi/reads-request-context.ts), before the first request. Code that
 * reaches it another way (loaded after the boot) turns it on by its first
 * `get()` or `run()`, for the requests after that one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type Koa from 'koa';

export class RequestContext {
  private readonly storage = new AsyncLocalStorage<Koa.Context>();
  private on = false;

  /** Whether requests run inside the store. */
  get enabled(): boolean {
    return this.on;
  }

  /** Runs every request from now on inside the store. */
  enable(): void {
    this.on = true;
  }

  /** Runs `callback` with `store` as what `get()` answers inside it, as Strapi's `requestContext.run`. */
  async run<T>(store: Koa.Context, callback: () => T | Promise<T>): Promise<T> {
    this.on = true;
    return this.storage.run(store, callback);
  }

  /** The context of the request being served, `undefined` outside one. */
  get(): Koa.Context | undefined {
    this.on = true;
    return this.storage.getStore();
  }

  /** The outermost middleware: each request runs inside the store once it is on. */
  middleware(): Koa.Middleware {
    return (ctx, next) => (this.on ? this.storage.run(ctx, next) : next());
  }
}

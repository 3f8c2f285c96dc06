/**
 * `strapi.requestContext`: Strapi v4's per-request store — `get()` answers the
 * Koa context of the request whose work is running (in a lifecycle hook, an
 * entity-service decorator, a service), `run(store, fn)` sets one for `fn`.
 * Plugins read the caller there (`strapi.requestContext.get()?.state.user`).
 *
 * The store is on from the app's creation, as Strapi's is: the first request
 * after boot has its context like every other (a lazy switch, made by the first
 * read of `strapi.requestContext`, missed the request during which that read
 * happened — a lifecycle hook reading it on the first POST got `undefined`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type Koa from 'koa';

export class RequestContext {
  private readonly storage = new AsyncLocalStorage<Koa.Context>();

  /** Runs `callback` with `store` as what `get()` answers inside it, as Strapi's `requestContext.run`. */
  async run<T>(store: Koa.Context, callback: () => T | Promise<T>): Promise<T> {
    return this.storage.run(store, callback);
  }

  /** The context of the request being served, `undefined` outside one. */
  get(): Koa.Context | undefined {
    return this.storage.getStore();
  }

  /** The outermost middleware: each request runs inside the store. */
  middleware(): Koa.Middleware {
    return (ctx, next) => this.storage.run(ctx, next);
  }
}

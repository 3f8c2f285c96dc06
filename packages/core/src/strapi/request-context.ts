/**
 * `strapi.requestContext`: Strapi v4's per-request store — `get()` answers the
 * Koa context of the request whose work is running (in a lifecycle hook, an
 * entity-service decorator, a service), `run(store, fn)` sets one for `fn`.
 * Plugins read the caller there (`strapi.requestContext.get()?.state.user`).
 *
 * It runs on Node's AsyncLocalStorage, which makes Node track every promise of
 * the process once a store is in use. An app none of whose code reads the
 * member should not pay for it, so the store is switched on by the first read
 * of `strapi.requestContext`; from then on the outermost middleware runs each
 * request inside it. A request already in flight at that moment has no store
 * (`get()` answers `undefined`, as Strapi's does outside any request, in a
 * cron job or at boot).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type Koa from 'koa';

export class RequestContext {
  private storage: AsyncLocalStorage<Koa.Context> | undefined;

  /** Switches the store on (reading `strapi.requestContext` does); the same object, for chaining. */
  switchedOn(): this {
    this.storage ??= new AsyncLocalStorage<Koa.Context>();
    return this;
  }

  /** Runs `callback` with `store` as what `get()` answers inside it, as Strapi's `requestContext.run`. */
  async run<T>(store: Koa.Context, callback: () => T | Promise<T>): Promise<T> {
    return this.switchedOn().storage!.run(store, callback);
  }

  /** The context of the request being served, `undefined` outside one. */
  get(): Koa.Context | undefined {
    return this.storage?.getStore();
  }

  /** The outermost middleware: each request runs inside the store once it is on; a plain pass-through before. */
  middleware(): Koa.Middleware {
    return (ctx, next) => (this.storage ? this.storage.run(ctx, next) : next());
  }
}

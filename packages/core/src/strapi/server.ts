/**
 * `strapi.server`: Strapi v4's server object over Tessera's HTTP server.
 *
 *   strapi.server.app / .router                    the Koa app and the router routes are mounted on
 *   strapi.server.httpServer                       the Node server, there from `register` on (listening after boot)
 *   strapi.server.use(fn)                          a Koa middleware on the app (before the global stack when
 *                                                  called in `register`, after it from `bootstrap`, as in Strapi)
 *   strapi.server.routes([...])                    routes at the root, no prefix
 *   strapi.server.routes({ type, prefix, routes }) `content-api` under `api.rest.prefix`, `admin` recorded, not served
 *   strapi.server.listRoutes()                     the router's layers (`path`, `methods`), as Strapi's
 *   strapi.server.api('content-api')               `{ routes, use, listRoutes }` for one API
 *
 * Routes added here get the same chain as every other route (authenticate → authorize → middlewares →
 * policies → handler): before mounting they join the routes registry, afterwards they are mounted at once.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import KoaRouter from '@koa/router';
import { routeTable } from '../http/route-table';
import { ConfigurationError } from '@tessera/errors';
import type { App } from '../app-type';
import type { HttpServer } from '../http/server';
import { mountRouter, restPrefix } from '../http/routes';
import type { RouteConfig, RouterDefinition } from '../types';

type ApiName = 'content-api' | 'admin';

/** What `strapi.server.routes` takes: a route list, or a router with its type and prefix. */
export type ServerRoutes = RouteConfig[] | { type?: ApiName; prefix?: string; routes: RouteConfig[] };

export interface ServerApi {
  routes(routes: RouteConfig[] | { prefix?: string; routes: RouteConfig[] }): ServerApi;
  use(middleware: Koa.Middleware): ServerApi;
  listRoutes(): Router.Layer[];
}

export class StrapiServer {
  private added = 0;
  private mounted = false;

  constructor(
    private readonly owner: App,
    /** The HTTP server this fronts (kept for the kernel: listen, close). */
    readonly http: HttpServer,
  ) {}

  /** The Koa application (Strapi's `strapi.server.app`). */
  get app(): Koa {
    return this.http.koa;
  }

  /** The same Koa application under Tessera's earlier name. */
  get koa(): Koa {
    return this.http.koa;
  }

  get router(): Router {
    return this.http.router;
  }

  /** The `http.Server` the app listens on; plugins attach to it at boot (socket.io). */
  get httpServer(): import('node:http').Server {
    return this.http.node;
  }

  /**
   * Strapi's `strapi.server.mount()`, which its documented Jest setup calls after `load()` before handing
   * `strapi.server.httpServer` to supertest: here the routes are mounted by `load()` already, so it only answers the server.
   */
  mount(): this {
    return this;
  }

  use(middleware: Koa.Middleware): this {
    if (typeof middleware !== 'function') throw new ConfigurationError('strapi.server.use takes a Koa middleware function');
    this.http.use(middleware);
    return this;
  }

  routes(routes: ServerRoutes): this {
    if (Array.isArray(routes)) return this.add({ type: 'raw', routes });
    if (!routes || !Array.isArray(routes.routes)) throw new ConfigurationError('strapi.server.routes takes a list of routes or { type, prefix, routes }');
    if (routes.type !== undefined && routes.type !== 'content-api' && routes.type !== 'admin') {
      throw new ConfigurationError(`API ${String(routes.type)} not found. Possible APIs are content-api,admin`);
    }
    return this.add({ type: routes.type ?? 'raw', prefix: routes.prefix, routes: routes.routes });
  }

  /**
   * Every layer of the router (Strapi returns the same: `@koa/router` layers with `path` and `methods`). Before the
   * routes are mounted — during `bootstrap`, where plugins such as rest-cache look their routes up — the layers are
   * built from the route table the kernel will mount, so the answer is the same either side of mounting.
   */
  listRoutes(): Router.Layer[] {
    if (this.mounted) return [...this.http.router.stack];
    const scratch = new KoaRouter();
    for (const row of routeTable(this.owner)) scratch.register(row.path, [row.method], () => undefined);
    return [...this.http.router.stack, ...scratch.stack];
  }

  api(name: ApiName): ServerApi {
    if (name !== 'content-api' && name !== 'admin') throw new ConfigurationError(`API ${String(name)} not found. Possible APIs are content-api,admin`);
    const server = this;
    const prefix = name === 'content-api' ? restPrefix(this.owner) : '/admin';
    const api: ServerApi = {
      routes(routes) {
        const list = Array.isArray(routes) ? routes : routes.routes;
        server.add({ type: name, prefix: Array.isArray(routes) ? undefined : routes.prefix, routes: list });
        return api;
      },
      use(middleware) {
        // Runs for the API's matched routes only (a router-level middleware under its prefix).
        if (name === 'content-api') server.http.router.use(prefix || '/', middleware);
        return api;
      },
      listRoutes() {
        return server.listRoutes().filter((layer) => layer.methods.length > 0 && (prefix === '' || String(layer.path).startsWith(`${prefix}/`)));
      },
    };
    return api;
  }

  /** The kernel mounts the registry's routes once; later `routes(…)` calls mount at once. */
  markMounted(): void {
    this.mounted = true;
  }

  private add(definition: RouterDefinition): this {
    this.added += 1;
    const key = `global::server-routes-${this.added}`;
    if (this.mounted) mountRouter(this.owner, this.http.router, key, definition);
    else this.owner.routes.add(key, definition);
    return this;
  }
}

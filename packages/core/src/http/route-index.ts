/**
 * What the app serves, for people finding their way: the hint of a 404 on
 * an unknown `/api/…` path (the closest content-API route), and the route
 * index `GET /` answers in development. Both read the mounted router once,
 * on first use: routes do not change after boot.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import { editDistance, type ErrorDetails } from '@tessera/errors';
import type { App } from '../app-type';
import { routeTable, summarize } from './route-table';

export interface RouteEntry {
  method: string;
  path: string;
}

const MAX_COMPARED = 200;
const listed = new WeakMap<Router, RouteEntry[]>();

/** Content-API routes in mounting order, one entry per method (HEAD, implied by GET, left out). */
export function contentApiRoutes(router: Router, prefix = '/api'): RouteEntry[] {
  let routes = listed.get(router);
  if (!routes) {
    routes = [];
    for (const layer of router.stack) {
      const path = layer.path;
      if (typeof path !== 'string' || !path.startsWith(`${prefix}/`)) continue;
      for (const method of layer.methods) if (method !== 'HEAD') routes.push({ method, path });
    }
    listed.set(router, routes);
  }
  return routes;
}

/**
 * `{ hint }` naming the content-API route closest to the request (same
 * method preferred; `:id`-style segments match any value), for paths under
 * the content-API prefix (`api.rest.prefix`); nothing for other paths.
 */
export function notFoundDetails(router: Router, method: string, path: string, prefix = '/api'): ErrorDetails {
  if (!path.startsWith(`${prefix}/`)) return {};
  const routes = contentApiRoutes(router, prefix);
  if (routes.length === 0) return { hint: 'this app serves no content-API route' };
  // Bounded: the comparison costs length × route length per route, and the hint echoes it.
  const requested = `${method} ${path.slice(0, MAX_COMPARED)}`;
  const byLabel = new Map(routes.map((route) => [`${route.method} ${withSegmentsOf(route.path, path)}`, route]));
  const route = byLabel.get(nearest(requested, [...byLabel.keys()]))!;
  return { hint: `no route ${requested}; the closest content-API route is ${route.method} ${route.path}` };
}

/**
 * `GET /` in development: the content-API routes to start exploring, and every route with its handler,
 * action, auth and policies (what `tessera routes` prints).
 */
export function routeIndex(app: App, router: Router, prefix = '/api'): Koa.Middleware {
  return async (ctx) => {
    const table = summarize(routeTable(app), await app.permissions.publicAbility());
    ctx.body = { data: { routes: contentApiRoutes(router, prefix).map(({ method, path }) => `${method} ${path}`), table }, meta: {} };
  };
}

/** A route pattern with its `:param` segments filled from the request, so only the fixed parts are compared. */
function withSegmentsOf(pattern: string, path: string): string {
  const requested = path.split('/');
  return pattern
    .split('/')
    .map((segment, index) => (segment.startsWith(':') && requested[index] ? requested[index] : segment))
    .join('/');
}

/** The least distant label (the first of equals: routes keep their mounting order). */
function nearest(requested: string, labels: string[]): string {
  let best = labels[0]!;
  let bestDistance = Infinity;
  for (const label of labels) {
    const distance = editDistance(requested.toLowerCase(), label.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [label, distance];
  }
  return best;
}

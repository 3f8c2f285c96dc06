/**
 * The router's request dispatch: what `router.routes()` of @koa/router 13.1
 * does per request, with the same outcome, but without its per-request work
 * that depends only on the route table.
 *
 * @koa/router tests every layer's regexp against the path, reads `ctx.host`
 * (a header parse) even when the router has no host, and builds and composes
 * a fresh middleware chain for each request. Here:
 *
 * - layers are bucketed by the literal first segment of their path
 *   (`/api/…` → `api`, lower-cased: a non-sensitive layer matches it in any
 *   case), so a request tests only the layers of its first segment plus those
 *   whose first segment is not literal, in router order. A layer can only
 *   match a path whose first segment equals its own, so the layers matched —
 *   and `ctx.matched`, which `allowedMethods` reads — are the same;
 * - the chain for a given list of matched layers is flattened once and kept
 *   (the route's path values are set by the same layer methods, per request);
 * - the host is read only when the router has one.
 *
 * The index is rebuilt when layers are added (`strapi.server.routes()` after
 * mounting) and a kept chain when a layer's own middleware list changes
 * (`router.param()`), so a router changed at run time dispatches as
 * @koa/router would.
 */
import type Koa from 'koa';
import type Router from '@koa/router';

type Layer = Router.Layer;
/** Members @koa/router has at run time that its type declarations leave out. */
interface RouterRuntime {
  host?: string | RegExp;
  exclusive: boolean;
  matchHost(input: string): boolean;
}
type Next = () => Promise<unknown>;
/** A chain step: a layer's own step (set params, `ctx.routerPath`, …) or one of its middlewares. */
type Step = Layer | Koa.Middleware;

interface Chain {
  layers: Layer[];
  /** Each layer's middleware count when the chain was built; a change means `router.param()` added one. */
  sizes: number[];
  steps: Step[];
}

interface Index {
  stack: Layer[];
  size: number;
  /** Layers by the lower-cased literal first segment, merged in router order with `unbucketed`. */
  byFirstSegment: Map<string, Layer[]>;
  /** Layers whose first segment is not a literal (a parameter, a pattern, no leading slash, a RegExp path). */
  unbucketed: Layer[];
  position: Map<Layer, number>;
  chains: Map<string, Chain>;
}

const LITERAL_SEGMENT = /^\/([A-Za-z0-9_~.-]*)(?:\/|$)/;
const FIRST_SEGMENT = /^\/([^/#?]*)/;

export function routeDispatcher(koaRouter: Router): Koa.Middleware {
  const router = koaRouter as Router & RouterRuntime;
  let index: Index | undefined;
  return (ctx, next) => {
    // matchHost is true for a router without a host: only a host makes the (header-parsing) read worth it.
    if (router.host && !router.matchHost(ctx.host)) return next();
    if (!index || index.stack !== router.stack || index.size !== router.stack.length) index = buildIndex(router.stack);
    const context = ctx as Koa.Context & { newRouterPath?: string; routerPath?: string; matched?: Layer[] };
    // @koa/router's choice of path; its regexps would read a missing one as the text "undefined" too.
    const path = String(router.opts.routerPath || context.newRouterPath || ctx.path || context.routerPath);
    const method = ctx.method;

    const matchedPath: Layer[] = [];
    const pathAndMethod: Layer[] = [];
    let route = false;
    for (const layer of candidates(index, path)) {
      if (!layer.match(path)) continue;
      matchedPath.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(method)) {
        pathAndMethod.push(layer);
        if (layer.methods.length > 0) route = true;
      }
    }
    if (context.matched) context.matched.push(...matchedPath);
    else context.matched = matchedPath;
    ctx.router = router;
    if (!route) return next();

    const mostSpecific = pathAndMethod[pathAndMethod.length - 1];
    ctx._matchedRoute = mostSpecific.path;
    if (mostSpecific.name) ctx._matchedRouteName = mostSpecific.name;
    const chain = chainOf(index, router.exclusive ? [mostSpecific] : pathAndMethod);
    return run(ctx, chain.steps, path, next);
  };
}

function buildIndex(stack: Layer[]): Index {
  const buckets = new Map<string, Layer[]>();
  const unbucketed: Layer[] = [];
  for (const layer of stack) {
    const literal = typeof layer.path === 'string' ? LITERAL_SEGMENT.exec(layer.path) : null;
    if (!literal) {
      unbucketed.push(layer);
      continue;
    }
    const key = literal[1].toLowerCase();
    const bucket = buckets.get(key);
    if (bucket) bucket.push(layer);
    else buckets.set(key, [layer]);
  }
  // Each bucket with the unbucketed layers, in router order (the order layers run and `ctx.matched` lists them).
  const position = new Map(stack.map((layer, at) => [layer, at]));
  const byFirstSegment = new Map<string, Layer[]>();
  for (const [key, layers] of buckets) {
    byFirstSegment.set(key, [...layers, ...unbucketed].sort((a, b) => position.get(a)! - position.get(b)!));
  }
  return { stack, size: stack.length, byFirstSegment, unbucketed, position, chains: new Map() };
}

function candidates(index: Index, path: string): Layer[] {
  const first = FIRST_SEGMENT.exec(path);
  if (!first) return index.unbucketed;
  return index.byFirstSegment.get(first[1].toLowerCase()) ?? index.unbucketed;
}

/** The flattened chain of these layers, built once per list of layers (and again if a layer's middlewares change). */
function chainOf(index: Index, layers: Layer[]): Chain {
  const key = layers.length === 1 ? String(index.position.get(layers[0])) : layers.map((layer) => index.position.get(layer)).join(',');
  const kept = index.chains.get(key);
  if (kept && kept.layers.every((layer, i) => layer.stack.length === kept.sizes[i])) return kept;
  const steps: Step[] = [];
  for (const layer of layers) {
    steps.push(layer);
    for (const middleware of (layer.stack as unknown[]).flat(Infinity)) {
      // koa-compose's check, made where @koa/router makes it (composing the matched chain).
      if (typeof middleware !== 'function') throw new TypeError('Middleware must be composed of functions!');
      steps.push(middleware as Koa.Middleware);
    }
  }
  const chain: Chain = { layers, sizes: layers.map((layer) => layer.stack.length), steps };
  index.chains.set(key, chain);
  return chain;
}

/** koa-compose's dispatch over the steps; a layer's step sets the route values for the path, as @koa/router's does. */
function run(ctx: Koa.Context, steps: Step[], path: string, next: Next): Promise<unknown> {
  let last = -1;
  const dispatch = (i: number): Promise<unknown> => {
    if (i <= last) return Promise.reject(new Error('next() called multiple times'));
    last = i;
    const step = i === steps.length ? next : steps[i];
    if (!step) return Promise.resolve();
    try {
      if (typeof step !== 'function') {
        enterLayer(ctx, step, path);
        return Promise.resolve(dispatch(i + 1));
      }
      return Promise.resolve(step(ctx, () => dispatch(i + 1)));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return dispatch(0);
}

function enterLayer(ctx: Koa.Context, layer: Layer, path: string): void {
  const context = ctx as Koa.Context & { routerPath?: string | RegExp; routerName?: string | null };
  const request = ctx.request as Koa.Request & { params?: Record<string, string> };
  ctx.captures = layer.captures(path);
  // The object given is filled in place (a path value is never undefined there: empty captures are skipped).
  const params = layer.params(path, ctx.captures, ctx.params) as Record<string, string>;
  request.params = params;
  ctx.params = params;
  context.routerPath = layer.path;
  context.routerName = layer.name;
  ctx._matchedRoute = layer.path;
  if (layer.name) ctx._matchedRouteName = layer.name;
}

/**
 * The router's request dispatch: what `router.routes()` of @koa/router 13.1
 * does per request, with the same outcome, but without its per-request work
 * that depends only on the route table.
 *
 * @koa/router tests every layer's regexp against the path, reads `ctx.host`
 * (a header parse) even when the router has no host, and builds and composes
 * a fresh middleware chain for each request. Here:
 *
 * - layers are bucketed by the literal first two segments of their path
 *   (`/api/articles/:id` → `api/articles`; `/api/:x` and `/api` → `api`;
 *   lower-cased: a non-sensitive layer matches them in any case), so a
 *   request tests only the layers whose literal segments equal its own, plus
 *   those without a literal first segment, in router order. A layer can only
 *   match a path that starts with its literal segments, so the layers
 *   matched — and `ctx.matched`, which `allowedMethods` reads — are the same;
 * - the chain for a given list of matched layers is flattened once and kept
 *   (the route's path values are set by the same layer methods, per request);
 * - the host is read only when the router has one.
 *
 * The index is rebuilt when layers are added (`strapi.server.routes()` after
 * mounting) or the router's prefix changes, and a kept chain when a layer's own middleware list changes
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
  /** `router.prefix(…)` rewrites every layer's path: a new prefix means a new index. */
  prefix: string | undefined;
  /**
   * The layers a path may match, by its lower-cased first two segments (`api/articles`) or its first (`api`):
   * those with these literal segments, with the first one only, and `unbucketed`, in router order.
   */
  byPrefix: Map<string, Layer[]>;
  /** Layers whose first segment is not a literal (a parameter, a pattern, no leading slash, a RegExp path). */
  unbucketed: Layer[];
  position: Map<Layer, number>;
  chains: Map<string, Chain>;
}

/** A layer path's literal first segment and, when literal and not empty, its second (then a `/` or the end). */
const LITERAL_SEGMENTS = /^\/([A-Za-z0-9_~.-]*)(?:\/([A-Za-z0-9_~.-]+))?(?:\/|$)/;
/** A request path's first two segments, as the layers' regexps delimit them. */
const PATH_SEGMENTS = /^\/([^/#?]*)(?:\/([^/#?]*))?/;

export function routeDispatcher(koaRouter: Router): Koa.Middleware {
  const router = koaRouter as Router & RouterRuntime;
  let index: Index | undefined;
  return (ctx, next) => {
    // matchHost is true for a router without a host: only a host makes the (header-parsing) read worth it.
    if (router.host && !router.matchHost(ctx.host)) return next();
    if (!index || index.stack !== router.stack || index.size !== router.stack.length || index.prefix !== router.opts.prefix) {
      index = buildIndex(router.stack, router.opts.prefix);
    }
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

function buildIndex(stack: Layer[], prefix: string | undefined): Index {
  const bySegments = new Map<string, Layer[]>();
  const unbucketed: Layer[] = [];
  const add = (key: string, layer: Layer) => {
    const bucket = bySegments.get(key);
    if (bucket) bucket.push(layer);
    else bySegments.set(key, [layer]);
  };
  for (const layer of stack) {
    const literal = typeof layer.path === 'string' ? LITERAL_SEGMENTS.exec(layer.path) : null;
    if (!literal) unbucketed.push(layer);
    else add(prefixKey(literal[1], literal[2]), layer);
  }
  const position = new Map(stack.map((layer, at) => [layer, at]));
  const inOrder = (layers: Layer[]) => layers.sort((a, b) => position.get(a)! - position.get(b)!);
  const byPrefix = new Map<string, Layer[]>();
  for (const [key, layers] of bySegments) {
    const slash = key.indexOf('/');
    const first = slash < 0 ? key : key.slice(0, slash);
    const firstOnly = slash < 0 ? [] : bySegments.get(first) ?? [];
    byPrefix.set(key, inOrder([...layers, ...firstOnly, ...unbucketed]));
    // A path whose second segment no layer names literally: the first segment's own layers.
    if (!byPrefix.has(first) && !bySegments.has(first)) byPrefix.set(first, inOrder([...unbucketed]));
  }
  return { stack, size: stack.length, prefix, byPrefix, unbucketed, position, chains: new Map() };
}

function prefixKey(first: string, second: string | undefined): string {
  return second === undefined ? first.toLowerCase() : `${first}/${second}`.toLowerCase();
}

function candidates(index: Index, path: string): Layer[] {
  const segments = PATH_SEGMENTS.exec(path);
  if (!segments) return index.unbucketed;
  if (segments[2] !== undefined) {
    const both = index.byPrefix.get(prefixKey(segments[1], segments[2]));
    if (both) return both;
  }
  return index.byPrefix.get(prefixKey(segments[1], undefined)) ?? index.unbucketed;
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

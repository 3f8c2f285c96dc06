/**
 * The router dispatch the HTTP server mounts (http/route-dispatch.ts) against
 * @koa/router's own `router.routes()`: one router, two Koa servers, the same
 * requests over real HTTP; every answer (status, Allow header, and what the
 * route saw: params, captures, matched layers, route path and name) must be
 * the same. The route table covers what the index must not get wrong: case,
 * parameters and patterns in the first segment, `router.use` layers,
 * trailing and doubled slashes, encoded letters, and changes after the
 * first request (a route added, a `router.param` middleware).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import { routeDispatcher } from '@tessera/core';

type Server = { url: string; close: () => Promise<void> };

function serve(router: Router, dispatch: Koa.Middleware): Promise<Server> {
  const koa = new Koa();
  koa.silent = true;
  koa.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404) ctx.body = { fellThrough: true, matched: (ctx.matched ?? []).map((layer: Router.Layer) => String(layer.path)) };
  });
  koa.use(dispatch);
  koa.use(router.allowedMethods());
  const server = http.createServer(koa.callback());
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** What a route reports about how it was reached. */
function probe(label: string): Koa.Middleware {
  return (ctx) => {
    const context = ctx as Koa.Context & { routerPath?: unknown; routerName?: unknown };
    ctx.body = {
      label,
      params: ctx.params,
      captures: ctx.captures,
      matched: (ctx.matched ?? []).map((layer: Router.Layer) => String(layer.path)),
      routerPath: String(context.routerPath),
      routerName: context.routerName ?? null,
      matchedRoute: String(ctx._matchedRoute),
      matchedRouteName: ctx._matchedRouteName ?? null,
      trail: ctx.state.trail ?? [],
    };
  };
}

function routes(): Router {
  const router = new Router();
  router.use('/api', (ctx, next) => {
    ctx.state.trail = [...(ctx.state.trail ?? []), 'use /api'];
    return next();
  });
  router.use((ctx, next) => {
    ctx.state.trail = [...(ctx.state.trail ?? []), 'use all'];
    return next();
  });
  router.get('/', probe('root'));
  router.get('article-list', '/api/articles', probe('list'));
  router.post('/api/articles', probe('create'));
  router.get('/api/articles/:id', probe('one'));
  router.put('/api/articles/:id', probe('update'));
  router.get('/api/articles/:id/:field?', probe('field'));
  router.get('/:lang/pages/:slug', probe('localized page'));
  router.get('/files/(.*)', probe('file'));
  router.get('/v1.2/status', probe('versioned'));
  router.get('/API/upper', probe('upper'));
  router.all('/api/anything/:x', probe('all methods'));
  router.get(/^\/regexp\/(\d+)$/, probe('regexp'));
  return router;
}

const REQUESTS: Array<[string, string]> = [
  ['GET', '/'],
  ['GET', '/api/articles'],
  ['GET', '/API/Articles'],
  ['GET', '/api/articles/'],
  ['POST', '/api/articles'],
  ['DELETE', '/api/articles'],
  ['GET', '/api/articles/12'],
  ['PUT', '/api/articles/12'],
  ['PATCH', '/api/articles/12'],
  ['GET', '/api/articles/12/title'],
  ['GET', '/api/articles/caf%C3%A9'],
  ['GET', '/%61pi/articles'],
  ['GET', '//api/articles'],
  ['GET', '/api//articles'],
  ['GET', '/api'],
  ['GET', '/apiary'],
  ['GET', '/fr/pages/home'],
  ['GET', '/api/pages/home'],
  ['GET', '/files/a/b/c.png'],
  ['GET', '/Files/x'],
  ['GET', '/v1.2/status'],
  ['GET', '/v1x2/status'],
  ['GET', '/api/upper'],
  ['GET', '/api/anything/1'],
  ['GET', '/api/Anything/1'],
  ['GET', '/api/anything'],
  ['GET', '/api/unknown/1'],
  ['GET', '/api/%61rticles/1'],
  ['GET', '/fr/Pages/home'],
  ['GET', '/pages'],
  ['GET', '/v1.2/status/'],
  ['GET', '/v1.2'],
  ['DELETE', '/api/anything/1'],
  ['GET', '/regexp/42'],
  ['GET', '/regexp/x'],
  ['GET', '/nothing/here'],
  ['OPTIONS', '/api/articles/3'],
  ['HEAD', '/api/articles/3'],
];

async function answer(server: Server, method: string, path: string): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, { method });
  const text = await response.text();
  return { status: response.status, allow: response.headers.get('allow'), body: text };
}

describe('route dispatch: the same outcome as @koa/router', () => {
  const router = routes();
  let reference: Server;
  let indexed: Server;
  before(async () => {
    reference = await serve(router, router.routes() as Koa.Middleware);
    indexed = await serve(router, routeDispatcher(router));
  });
  after(async () => {
    await reference.close();
    await indexed.close();
  });

  async function expectSame(requests: Array<[string, string]>): Promise<void> {
    for (const [method, path] of requests) {
      expect(await answer(indexed, method, path), `${method} ${path}`).to.deep.equal(await answer(reference, method, path));
    }
  }

  it('matches, orders and runs layers as @koa/router does, whatever the spelling of the path', async () => {
    await expectSame(REQUESTS);
    // And the cases are not vacuous: routes were reached, in more than one way.
    const one = JSON.parse(((await answer(indexed, 'GET', '/API/Articles/7')) as { body: string }).body);
    expect(one).to.include({ label: 'one' });
    expect(one.params).to.deep.equal({ id: '7' });
    expect(one.trail).to.deep.equal(['use /api', 'use all']);
  });

  it('follows param middlewares set, routes added and a prefix set after the first requests', async () => {
    await expectSame(REQUESTS);
    router.param('id', (id, ctx, next) => {
      ctx.state.trail = [...(ctx.state.trail ?? []), `param ${id}`];
      return next();
    });
    await expectSame(REQUESTS);
    const one = JSON.parse(((await answer(indexed, 'GET', '/api/articles/12')) as { body: string }).body);
    expect(one.trail).to.deep.equal(['use /api', 'use all', 'param 12']);
    router.get('/api/late/:id', probe('late'));
    await expectSame([...REQUESTS, ['GET', '/api/late/5']]);
    const late = JSON.parse(((await answer(indexed, 'GET', '/api/late/5')) as { body: string }).body);
    expect(late).to.include({ label: 'late' });
    expect(late.trail).to.deep.equal(['use /api', 'use all', 'param 5']);
    router.prefix('/v2');
    await expectSame([...REQUESTS, ['GET', '/api/late/5'], ['GET', '/v2/api/late/5'], ['GET', '/v2/api/articles/3'], ['GET', '/v2'], ['GET', '/v2/']]);
    expect(JSON.parse(((await answer(indexed, 'GET', '/v2/api/articles/3')) as { body: string }).body)).to.include({ label: 'one' });
  });
});

/**
 * `strapi.api[name]`: one API of the app (`src/api/<name>`) as Strapi v4
 * shows it: `routes` by routes file (each `{ type, prefix, routes: [...] }`,
 * the registry's own router objects, so pushing a route before the routes
 * are mounted mounts it), and `contentTypes`, `services`, `controllers`,
 * `policies`, `middlewares` by short name.
 */
import type { ContentType } from '@tessera/database';
import type { App } from '../app-type';
import type { MiddlewareFactory, PolicyFunction, RouteConfig, RouterDefinition } from '../types';

export interface ApiModule {
  routes: Record<string, RouterDefinition & { routes: RouteConfig[] }>;
  contentTypes: Record<string, ContentType>;
  services: Record<string, object>;
  controllers: Record<string, object>;
  policies: Record<string, PolicyFunction>;
  middlewares: Record<string, MiddlewareFactory>;
  service(name: string): object | undefined;
  controller(name: string): object | undefined;
  contentType(name: string): ContentType;
}

/** Every API by name; built on access (the registries are the truth), its router objects shared with them. */
export function apiModules(app: App): Record<string, ApiModule> {
  const names = new Set<string>();
  for (const registry of [app.contentTypes, app.routes, app.services, app.controllers]) {
    for (const key of registry.keys()) if (key.startsWith('api::')) names.add(key.slice('api::'.length).split('.')[0]);
  }
  return Object.fromEntries([...names].sort().map((name) => [name, apiModule(app, name)]));
}

function apiModule(app: App, name: string): ApiModule {
  const prefix = `api::${name}.`;
  const shortKeys = (keys: string[]) => keys.filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
  return {
    get routes() {
      return Object.fromEntries(shortKeys(app.routes.keys()).map((short) => [short, materialized(app, app.routes.get(`${prefix}${short}`))]));
    },
    get contentTypes() {
      return Object.fromEntries(shortKeys(app.contentTypes.keys()).map((short) => [short, app.contentTypes.get(`${prefix}${short}`)]));
    },
    get services() {
      return Object.fromEntries(shortKeys(app.services.keys()).map((short) => [short, app.service(`${prefix}${short}`)]));
    },
    get controllers() {
      return Object.fromEntries(shortKeys(app.controllers.keys()).map((short) => [short, app.controller(`${prefix}${short}`) as object]));
    },
    get policies() {
      return Object.fromEntries(shortKeys(app.policies.keys()).map((short) => [short, app.policies.get(`${prefix}${short}`)]));
    },
    get middlewares() {
      return Object.fromEntries(shortKeys(app.middlewares.keys()).map((short) => [short, app.middlewares.get(`${prefix}${short}`)]));
    },
    service: (short) => app.service(`${prefix}${short}`),
    controller: (short) => app.controller(`${prefix}${short}`),
    contentType: (short) => app.contentTypes.get(`${prefix}${short}`),
  };
}

/**
 * A router whose routes are computed (a core router) gets its list computed now and kept on the router, as
 * Strapi's core router keeps it: the list a caller changes is the list that is mounted.
 */
export function materialized(app: App, router: RouterDefinition): RouterDefinition & { routes: RouteConfig[] } {
  if (typeof router.routes === 'function') router.routes = router.routes(app.context);
  return router as RouterDefinition & { routes: RouteConfig[] };
}

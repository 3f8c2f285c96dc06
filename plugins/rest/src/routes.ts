/**
 * The core routes of a content type: five for a collection type, three for
 * a single type. `only`/`except` choose among them; `config` adds auth,
 * policies and middlewares per action.
 */
import type { ContentType, CoreAction, RouteConfig, RouteOptions } from '@tessera/core';

export interface CoreRouterOptions {
  only?: CoreAction[];
  except?: CoreAction[];
  config?: Partial<Record<CoreAction, RouteOptions>>;
  prefix?: string;
}

export function coreRoutes(contentType: ContentType, options: CoreRouterOptions = {}): RouteConfig[] {
  const routes = contentType.kind === 'singleType' ? singleTypeRoutes(contentType) : collectionTypeRoutes(contentType);
  return routes
    .filter(({ action }) => (!options.only || options.only.includes(action)) && !options.except?.includes(action))
    .map(({ action, route }) => ({ ...route, config: options.config?.[action] ?? route.config }));
}

function collectionTypeRoutes(contentType: ContentType): Array<{ action: CoreAction; route: RouteConfig }> {
  const base = `/${contentType.info.pluralName}`;
  const controller = contentType.uid;
  return [
    { action: 'find', route: { method: 'GET', path: base, handler: `${controller}.find` } },
    { action: 'findOne', route: { method: 'GET', path: `${base}/:id`, handler: `${controller}.findOne` } },
    { action: 'create', route: { method: 'POST', path: base, handler: `${controller}.create` } },
    { action: 'update', route: { method: 'PUT', path: `${base}/:id`, handler: `${controller}.update` } },
    { action: 'delete', route: { method: 'DELETE', path: `${base}/:id`, handler: `${controller}.delete` } },
  ];
}

function singleTypeRoutes(contentType: ContentType): Array<{ action: CoreAction; route: RouteConfig }> {
  const base = `/${contentType.info.singularName}`;
  const controller = contentType.uid;
  return [
    { action: 'find', route: { method: 'GET', path: base, handler: `${controller}.find` } },
    { action: 'update', route: { method: 'PUT', path: base, handler: `${controller}.update` } },
    { action: 'delete', route: { method: 'DELETE', path: base, handler: `${controller}.delete` } },
  ];
}

/**
 * What the content API offers, by API and plugin, as Strapi v4's
 * `strapi.contentAPI` tells it: `permissions.getActionsMap()` (every
 * controller action a content-API route is mounted for — the actions a
 * custom API token or a users-permissions role can be granted) and
 * `getRoutesMap()` (those routes, with their full path and the scope they
 * need; the admin panel shows the routes an action opens). Both read the
 * route table, so they list exactly what is served.
 */
import type { App } from '../app-type';
import type { HttpMethod, RouteInfo } from '../types';
import { routeTable, type RouteRow } from './route-table';

/** `{ 'api::article': { controllers: { article: ['find', 'findOne', …] } } }`. */
export type ContentApiActionsMap = Record<string, { controllers: Record<string, string[]> }>;

export interface ContentApiRoute {
  method: HttpMethod;
  path: string;
  handler: string;
  config: { policies?: string[]; middlewares?: string[]; prefix?: string; auth: { scope: string[] } };
  info: RouteInfo;
}

/** The content-API routes with a controller action (a function handler has none), in mounting order. */
function actionRows(app: App): Array<RouteRow & { owner: string; controller: string; actionName: string }> {
  const rows = [];
  for (const row of routeTable(app)) {
    if (row.info.type !== 'content-api' || typeof row.route.handler !== 'string') continue;
    // `plugin::users-permissions.auth.callback`: the owner is what comes before the controller.
    const match = /^([a-z]+::[^.]+)\.(.+)\.([^.]+)$/.exec(row.action);
    if (!match || match[1] === 'global') continue;
    rows.push({ ...row, owner: match[1]!, controller: match[2]!, actionName: match[3]! });
  }
  return rows;
}

export function contentApiActionsMap(app: App): ContentApiActionsMap {
  const map: ContentApiActionsMap = {};
  for (const row of actionRows(app)) {
    const controllers = (map[row.owner] ??= { controllers: {} }).controllers;
    const actions = (controllers[row.controller] ??= []);
    if (!actions.includes(row.actionName)) actions.push(row.actionName);
  }
  return map;
}

/** Every action of the map, `api::article.article.find` (what a custom token may name). */
export function contentApiActions(app: App): string[] {
  return Object.entries(contentApiActionsMap(app)).flatMap(([owner, { controllers }]) =>
    Object.entries(controllers).flatMap(([controller, actions]) => actions.map((action) => `${owner}.${controller}.${action}`)),
  );
}

export function contentApiRoutesMap(app: App): Record<string, ContentApiRoute[]> {
  const map: Record<string, ContentApiRoute[]> = {};
  for (const row of actionRows(app)) {
    const declared = row.route.config ?? {};
    const config: ContentApiRoute['config'] = {
      ...(declared.policies ? { policies: row.policies } : {}),
      ...(declared.middlewares ? { middlewares: row.middlewares } : {}),
      ...(declared.prefix !== undefined ? { prefix: declared.prefix } : {}),
      // Strapi's scope for the route; an open route (`auth: false`) still names its action, as Strapi's map does.
      auth: { scope: row.auth === false || row.auth.length === 0 ? [row.action] : row.auth },
    };
    (map[row.owner] ??= []).push({ method: row.method, path: row.path, handler: row.route.handler as string, config, info: row.info });
  }
  return map;
}

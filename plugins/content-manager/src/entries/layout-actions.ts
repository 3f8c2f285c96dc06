/**
 * Strapi's content-manager `routing` middleware: a plugin's config may hand the content manager's create or update
 * of one of its types to a controller of its own (`layout.<modelName>.actions.<action>: 'controller.action'`;
 * users-permissions' user: `contentManagerUser.create`), which then answers the request. As on Strapi, the
 * controller is found by its lower-cased name and called with the context; Tessera checks the admin's access to
 * the type (and, for an update, to the entry) first, and passes a second argument, `proceed`: the content manager's
 * own write, for a controller that only prepares the body (its fields sanitized as any write's) and adds `trusted`
 * values after that (users-permissions' `provider`, a field hidden from admins): core's plugins/layout-actions.ts.
 */
import type Koa from 'koa';
import { requestBody, type App, type ProceedWithWrite } from '@tessera/core';
import { bodyObject } from './input';

type LayoutController = (ctx: Koa.Context, proceed: ProceedWithWrite) => unknown;

export type LayoutAction = 'create' | 'update';

/**
 * The content manager's create or update of a type: through the controller a plugin configured for it (looked up
 * once per type and action), or, with none, `proceed` with the request's body.
 */
export function layoutActions(app: App): (ctx: Koa.Context, uid: string, action: LayoutAction, proceed: ProceedWithWrite) => Promise<void> {
  const found = new Map<string, LayoutController | undefined>();
  return async (ctx, uid, action, proceed) => {
    const key = `${uid} ${action}`;
    if (!found.has(key)) found.set(key, configuredController(app, uid, action));
    const controller = found.get(key);
    if (!controller) return proceed({ body: bodyObject(requestBody(ctx)) });
    // What the controller returns is the answer unless it set one (the kernel's rule for routes).
    const result = await controller(ctx, proceed);
    if (ctx.body === undefined && result !== undefined) ctx.body = result;
  };
}

function configuredController(app: App, uid: string, action: LayoutAction): LayoutController | undefined {
  const type = app.contentTypes.find(uid);
  if (!type?.plugin || !type.modelName) return undefined;
  const configured = app.config.get<unknown>(`${type.plugin === 'admin' ? 'admin' : `plugin.${type.plugin}`}.layout.${type.modelName}.actions.${action}`);
  if (typeof configured !== 'string') return undefined;
  const [controllerName, method] = configured.split('.');
  const controllers = app.plugin(type.plugin)?.controllers ?? {};
  const controller = Object.entries(controllers).find(([name]) => name.toLowerCase() === controllerName?.toLowerCase())?.[1] as Record<string, unknown> | undefined;
  const handler = method === undefined ? undefined : controller?.[method];
  if (typeof handler !== 'function') throw new Error(`${type.plugin}: layout.${type.modelName}.actions.${action} names ${configured}, which is no controller action`);
  return handler.bind(controller) as LayoutController;
}

/** Resolves every configured controller at boot: a config naming no controller action stops the boot, naming it. */
export function checkLayoutActions(app: App): void {
  for (const uid of app.contentTypes.keys()) for (const action of ['create', 'update'] as const) configuredController(app, uid, action);
}

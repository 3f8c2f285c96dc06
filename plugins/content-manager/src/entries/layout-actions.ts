/**
 * Strapi's content-manager `routing` middleware: a plugin's config may hand the content manager's create or update
 * of one of its types to a controller of its own (`layout.<modelName>.actions.<action>: 'controller.action'`;
 * users-permissions' user: `contentManagerUser.create`), which then answers the request. As on Strapi, the
 * controller is found by its lower-cased name and called with the context; Tessera checks the admin's access to
 * the type (and, for an update, to the entry) first, and passes a second argument, `proceed`: the content manager's
 * own write, for a controller that only prepares the body (its fields sanitized as any write's) and adds `trusted`
 * values after that (users-permissions' `provider`, a field hidden from admins).
 */
import type Koa from 'koa';
import type { App } from '@tessera/core';

export interface ContentManagerWrite {
  body: Record<string, unknown>;
  /** Set after the body is kept to what the admin may write; a plugin's own values. */
  trusted?: Record<string, unknown>;
}

export type ProceedWithWrite = (write: ContentManagerWrite) => Promise<void>;

type LayoutController = (ctx: Koa.Context, proceed: ProceedWithWrite) => unknown;

export type LayoutAction = 'create' | 'update';

/** The controllers plugins configured, by type and action, looked up once each. */
export function layoutActions(app: App): (uid: string, action: LayoutAction) => LayoutController | undefined {
  const found = new Map<string, LayoutController | undefined>();
  return (uid, action) => {
    const key = `${uid} ${action}`;
    if (!found.has(key)) found.set(key, configuredController(app, uid, action));
    return found.get(key);
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

/** Runs the configured controller; what it returns is the answer unless it set one (the kernel's rule for routes). */
export async function runLayoutAction(ctx: Koa.Context, controller: LayoutController, proceed: ProceedWithWrite): Promise<void> {
  const result = await controller(ctx, proceed);
  if (ctx.body === undefined && result !== undefined) ctx.body = result;
}

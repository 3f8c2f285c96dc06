/**
 * Core factories, as in Strapi v4: an app's `routes/`, `controllers/` and
 * `services/` files call these to get the default behaviour, optionally
 * customised. An override object's methods can reach the default with
 * `super.find(ctx)`: the default becomes the override's prototype.
 */
import { ResponseTransformer, type App, type KernelContext, type RouterDefinition } from '@tessera/core';
import { coreRoutes, type CoreRouterOptions } from './routes';
import { defaultController, type CoreController } from './controller';
import { defaultService, type CoreService } from './service';

/** Strapi v4's customisation: `({ strapi }) => ({ async find(ctx) { … super.find(ctx) … } })`. */
type Extension<T> = (context: KernelContext) => Partial<T> & Record<string, unknown>;

export function createCoreRouter(uid: string, options: CoreRouterOptions = {}): RouterDefinition {
  return {
    type: 'content-api',
    prefix: options.prefix,
    routes: ({ app }) => coreRoutes(app.contentTypes.get(uid), options),
  };
}

export function createCoreController(uid: string, extend?: Extension<CoreController>) {
  return ({ app }: KernelContext): CoreController => {
    const base = defaultController(app, uid, () => transformerOf(app));
    return inherit(base, extend?.({ strapi: app, app }));
  };
}

export function createCoreService(uid: string, extend?: Extension<CoreService>) {
  return ({ app }: KernelContext): CoreService => inherit(defaultService(app, uid), extend?.({ strapi: app, app }));
}

function inherit<T extends object>(base: T, extension: object | undefined): T {
  if (!extension) return base;
  Object.setPrototypeOf(extension, base);
  return extension as T;
}

const transformers = new WeakMap<App, ResponseTransformer>();

/** One transformer per app, made on first use (after the database exists). */
export function transformerOf(app: App): ResponseTransformer {
  let transformer = transformers.get(app);
  if (!transformer) {
    transformer = new ResponseTransformer(app.db.metadata);
    transformers.set(app, transformer);
  }
  return transformer;
}

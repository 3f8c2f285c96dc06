/**
 * The REST plugin: serves every `api::` content type under `/api` with
 * Strapi v4's routes, envelopes and query parameters. For each content type
 * it registers the core controller and service unless the app provides its
 * own under the same uid, and the core router when its API has no routes
 * files (default-routers.ts).
 */
import type { Plugin } from '@tessera/core';
import { createCoreController, createCoreRouter, createCoreService } from './factories';
import { typesNeedingDefaultRouter } from './default-routers';

export const restPlugin: Plugin = {
  name: 'rest',
  register({ app }) {
    for (const contentType of app.contentTypes.values()) {
      if (contentType.namespace !== 'api') continue;
      const uid = contentType.uid;
      if (!app.controllers.has(uid)) app.controllers.add(uid, createCoreController(uid));
      if (!app.services.has(uid)) app.services.add(uid, createCoreService(uid));
    }
    for (const uid of typesNeedingDefaultRouter(app)) app.routes.add(uid, createCoreRouter(uid));
  },
};

export default restPlugin;

export const factories = { createCoreRouter, createCoreController, createCoreService };
export { createCoreRouter, createCoreController, createCoreService };
export type { CoreController } from './controller';
export type { CoreService, CoreServiceParams } from './service';
export type { CoreRouterOptions } from './routes';
export type { CoreAction } from '@tessera/core';
export { parseQuery, ResponseTransformer, type RestEntry } from '@tessera/core';

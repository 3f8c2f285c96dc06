/**
 * The REST plugin: serves every `api::` content type under `/api` with
 * Strapi v4's routes, envelopes and query parameters. For each content type
 * it registers the core router, controller and service unless the app
 * provides its own under the same uid.
 */
import type { App, Plugin } from '@tessera/core';
import { createCoreController, createCoreRouter, createCoreService } from './factories';
import { UPLOAD_FILE_UID, uploadFileContentType } from './upload-file';

export const restPlugin: Plugin = {
  name: 'rest',
  register(app: App) {
    // Media attributes need the file content type; the upload plugin, when present, brings its own.
    if (!app.contentTypes.has(UPLOAD_FILE_UID)) app.contentTypes.add(UPLOAD_FILE_UID, uploadFileContentType);
    for (const contentType of app.contentTypes.values()) {
      if (contentType.namespace !== 'api') continue;
      const uid = contentType.uid;
      if (!app.controllers.has(uid)) app.controllers.add(uid, createCoreController(uid));
      if (!app.services.has(uid)) app.services.add(uid, createCoreService(uid));
      if (!app.routes.has(uid)) app.routes.add(uid, createCoreRouter(uid));
    }
  },
};

export default restPlugin;

export const factories = { createCoreRouter, createCoreController, createCoreService };
export { createCoreRouter, createCoreController, createCoreService };
export type { CoreController } from './controller';
export type { CoreService, CoreServiceParams } from './service';
export type { CoreRouterOptions, CoreAction } from './routes';
export { parseQuery } from './query';
export { ResponseTransformer, type RestEntry } from './transform';

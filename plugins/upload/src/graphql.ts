/**
 * What the GraphQL plugin's shadow CRUD must not generate for upload's types,
 * when that plugin is on. Files are created, changed and removed by the upload
 * service only (REST `/api/upload`): a generated create or update would let a
 * client write `url`, `provider` or `hash` (a file row pointing anywhere), and
 * a generated delete would drop the row and leave the stored bytes served.
 * Folders have no content-API routes either. Queries stay, as in Strapi v4.
 */
import type { App } from '@tessera/core';

/** The part of `strapi.plugin('graphql').service('extension')` this needs (no import of the plugin's code). */
interface ShadowCrudSwitches {
  shadowCRUD(uid: string): { disableActions(actions: string[]): unknown };
}

export function restrictGraphqlShadowCrud(app: App): void {
  if (!app.plugins.has('graphql')) return;
  const extension = app.plugin('graphql').service<ShadowCrudSwitches>('extension');
  for (const uid of ['plugin::upload.file', 'plugin::upload.folder']) extension.shadowCRUD(uid).disableActions(['create', 'update', 'delete']);
}
